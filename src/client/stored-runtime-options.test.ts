import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { RUNTIME_OPTIONS_STORAGE_KEY, setStoredRuntimeOptions, storedRuntimeOptions } from './stored-runtime-options';

const store = new Map<string, string>();
beforeEach(() => {
  store.clear();
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => void store.set(key, value),
    removeItem: (key: string) => void store.delete(key),
  });
});
afterEach(() => vi.unstubAllGlobals());

test('unset: no options', () => {
  expect(storedRuntimeOptions()).toEqual({});
});

test('round trip of the tools configuration', () => {
  const options = {
    tools: { python: { timeLimitMs: 3000 }, webSearch: { provider: { type: 'searxng' as const, baseUrl: 'http://127.0.0.1:8888' }, allowPrivateNetwork: true, allowHosts: ['127.0.0.1:9999'] } },
  };
  setStoredRuntimeOptions(options);
  expect(storedRuntimeOptions()).toEqual(options);
  setStoredRuntimeOptions(null);
  expect(storedRuntimeOptions()).toEqual({});
});

test('a value that is not valid options is ignored (the runtime must still start)', () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  for (const raw of ['not json', '{"tools":{"webSearch":{"provider":{"type":"searxng","baseUrl":"not a url"}}}}', '{"extra":1}', '{"bodyMode":"stream"}']) {
    store.set(RUNTIME_OPTIONS_STORAGE_KEY, raw);
    expect(storedRuntimeOptions()).toEqual({});
  }
  expect(error).toHaveBeenCalledTimes(4);
  expect(() => setStoredRuntimeOptions({ extra: 1 } as never)).toThrow();
});
