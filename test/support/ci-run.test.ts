import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { isCiRun, presentOrFailInCi } from './ci-run';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('isCiRun', () => {
  test.each([
    ['true', true],
    ['1', true],
    ['yes', true],
    ['', false],
    ['false', false],
    ['0', false],
  ])('CI=%j → %s', (value, ci) => {
    vi.stubEnv('CI', value);
    expect(isCiRun()).toBe(ci);
  });
});

describe('presentOrFailInCi', () => {
  test('present: true, CI or not', () => {
    vi.stubEnv('CI', 'true');
    expect(presentOrFailInCi(true, 'x is absent')).toBe(true);
  });

  test('absent: false locally (the tests skip), an Error under CI', () => {
    vi.stubEnv('CI', '');
    expect(presentOrFailInCi(false, 'x is absent')).toBe(false);
    vi.stubEnv('CI', 'true');
    expect(() => presentOrFailInCi(false, 'x is absent')).toThrow(/^x is absent, and this is a CI run \(CI=true\): the tests that need it fail here instead of skipping/);
  });
});

describe('the stories260K fixture', () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-shared-models-'));
  afterAll(() => fs.rmSync(empty, { recursive: true, force: true }));

  test('absent under CI: every test file that imports it fails at load, saying what is missing', async () => {
    vi.stubEnv('SHARED_MODELS', empty);
    vi.stubEnv('CI', 'true');
    await expect(import('../fixtures/stories260k')).rejects.toThrow(`${path.join(empty, 'stories260K.gguf')} is absent`);
  });

  test('absent locally: HAVE_STORIES is false (the tests skip, saying why)', async () => {
    vi.stubEnv('SHARED_MODELS', empty);
    vi.stubEnv('CI', '');
    expect((await import('../fixtures/stories260k')).HAVE_STORIES).toBe(false);
  });
});
