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
  const retention = { retention: { maxAgeDays: 30, maxBytes: null } };
  setStoredRuntimeOptions(retention);
  expect(storedRuntimeOptions()).toEqual(retention);
  setStoredRuntimeOptions(null);
  expect(storedRuntimeOptions()).toEqual({});
});

test('a value that is not valid options is ignored (the runtime must still start)', () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  const raws = [
    'not json',
    '{"tools":{"webSearch":{"provider":{"type":"searxng","baseUrl":"not a url"}}}}',
    '{"extra":1}',
    '{"bodyMode":"stream"}',
    // Limits that would delete everything at the next start, or that are misspelt.
    '{"retention":{"maxAgeDays":0}}',
    '{"retention":{"maxBytes":-1}}',
    '{"retention":{"maxMegabytes":50}}',
  ];
  for (const raw of raws) {
    store.set(RUNTIME_OPTIONS_STORAGE_KEY, raw);
    expect(storedRuntimeOptions()).toEqual({});
  }
  expect(error).toHaveBeenCalledTimes(raws.length);
  expect(() => setStoredRuntimeOptions({ extra: 1 } as never)).toThrow();
});

test('the CPU engine\'s threads: a whole number of at least one, else the value is ignored', () => {
  setStoredRuntimeOptions({ cpu: { threads: 3 } });
  expect(storedRuntimeOptions()).toEqual({ cpu: { threads: 3 } });
  vi.spyOn(console, 'error').mockImplementation(() => {});
  for (const threads of [0, 1.5, -2]) {
    store.set(RUNTIME_OPTIONS_STORAGE_KEY, JSON.stringify({ cpu: { threads } }));
    expect(storedRuntimeOptions()).toEqual({});
  }
});
