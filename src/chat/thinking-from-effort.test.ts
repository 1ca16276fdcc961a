import { describe, expect, it } from 'vitest';
import { thinkingFromEffort } from './thinking-from-effort';

describe('thinkingFromEffort', () => {
  it('turns thinking off for none and minimal', () => {
    expect(thinkingFromEffort('none')).toBe(false);
    expect(thinkingFromEffort('minimal')).toBe(false);
  });

  it('turns thinking on for low through xhigh', () => {
    for (const effort of ['low', 'medium', 'high', 'xhigh'] as const) expect(thinkingFromEffort(effort)).toBe(true);
  });

  it('keeps the model default when no effort is given', () => {
    expect(thinkingFromEffort(null)).toBeUndefined();
    expect(thinkingFromEffort(undefined)).toBeUndefined();
  });
});
