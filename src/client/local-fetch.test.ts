import { describe, expect, test } from 'vitest';
import { localFetch, setCurrentRuntime } from './local-fetch';

describe('localFetch', () => {
  test('before startLocalRuntime: a 503 in OpenAI’s shape saying what to do', async () => {
    const response = await localFetch('http://app.example/v1/models');
    expect(response.status).toBe(503);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('runtime_unavailable');
    expect(body.error.message).toMatch(/call startLocalRuntime\(\)/);
  });

  test('then: the request goes to the runtime’s fetch, as sent', async () => {
    const seen: string[] = [];
    setCurrentRuntime(Promise.resolve({ fetch: (async (input: RequestInfo | URL) => (seen.push(String(input)), new Response('ok'))) as typeof fetch }));
    expect(await (await localFetch('http://app.example/v1/models')).text()).toBe('ok');
    expect(seen).toEqual(['http://app.example/v1/models']);
  });
});
