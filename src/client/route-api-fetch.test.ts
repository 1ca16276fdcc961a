import { expect, test } from 'vitest';
import { routeApiFetch } from './route-api-fetch';

const ORIGIN = 'https://app.example';

function setup() {
  const calls: { to: 'native' | 'api'; args: unknown[]; self?: unknown }[] = [];
  const native = function (this: unknown, ...args: unknown[]) {
    calls.push({ to: 'native', args, self: this });
    return Promise.resolve(new Response('network'));
  } as typeof fetch;
  const api = ((...args: unknown[]) => {
    calls.push({ to: 'api', args });
    return Promise.resolve(new Response('runtime'));
  }) as typeof fetch;
  const scope = { fetch: native };
  const original = routeApiFetch(api, scope, ORIGIN, `${ORIGIN}/chat/`);
  return { calls, native, scope, original, api };
}

test('same-origin /v1 goes to the runtime, in every form a URL can be given', async () => {
  const { calls, scope } = setup();
  await scope.fetch('/v1/responses', { method: 'POST', body: '{}' });
  await scope.fetch(`${ORIGIN}/v1`);
  await scope.fetch(new URL(`${ORIGIN}/v1/models?x=1`));
  await scope.fetch(new Request(`${ORIGIN}/v1/files`));
  expect(calls.map((c) => c.to)).toEqual(['api', 'api', 'api', 'api']);
  expect(calls[0]!.args).toEqual(['/v1/responses', { method: 'POST', body: '{}' }]);
});

test('everything else reaches the browser fetch unchanged: same arguments, same this', async () => {
  const { calls, scope, native, original } = setup();
  expect(original).toBe(native);
  await scope.fetch('/v1x/models');
  await scope.fetch('/api/v1/models');
  await scope.fetch('https://other.example/v1/models');
  await scope.fetch('http://app.example/v1/models'); // another scheme: another origin
  const init = { headers: { a: 'b' } };
  await scope.fetch('/index.html', init);
  await scope.fetch('http://[invalid');
  expect(calls.map((c) => c.to)).toEqual(['native', 'native', 'native', 'native', 'native', 'native']);
  expect(calls[4]!.args).toEqual(['/index.html', init]);
  expect(calls[0]!.args).toHaveLength(1); // no `undefined` init added
  expect(calls[0]!.self).toBe(scope);
});

test('installing twice keeps one routing and the first original', () => {
  const { scope, native, api } = setup();
  const routed = scope.fetch;
  expect(routeApiFetch(api, scope, ORIGIN, ORIGIN)).toBe(native);
  expect(scope.fetch).toBe(routed);
  expect(scope.fetch.name).toBe('fetch');
});
