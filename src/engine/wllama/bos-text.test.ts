import { describe, expect, it } from 'vitest';
import { withoutBosText } from './bos-text';

describe('withoutBosText', () => {
  it('drops a leading BOS text only when the engine adds BOS itself', () => {
    expect(withoutBosText('<|begin_of_text|><|start_header_id|>', true)).toBe('<|start_header_id|>');
    expect(withoutBosText('<bos><start_of_turn>user', true)).toBe('<start_of_turn>user');
    expect(withoutBosText('<s>Once upon a time', true)).toBe('Once upon a time');
    expect(withoutBosText('<｜begin▁of▁sentence｜><｜User｜>Hi', true)).toBe('<｜User｜>Hi');
    expect(withoutBosText('<s>Once upon a time', false)).toBe('<s>Once upon a time');
    expect(withoutBosText('Once <s> upon', true)).toBe('Once <s> upon');
    expect(withoutBosText('<|im_start|>user\nHi', true)).toBe('<|im_start|>user\nHi');
  });
});
