import { expect, test } from 'vitest';
import { crossSiteRefusal, refuseCrossSite, type GuardedRequest } from './cross-site-guard';

const origin = 'http://127.0.0.1:4173';
const request = (mode: RequestMode, headers: Record<string, string> = {}): GuardedRequest => ({ mode, headers: new Headers(headers) });

test("this origin's fetches pass (with or without the headers the browser may add)", () => {
  expect(crossSiteRefusal(request('cors'), origin)).toBeNull();
  expect(crossSiteRefusal(request('same-origin', { 'sec-fetch-site': 'same-origin', origin }), origin)).toBeNull();
  expect(crossSiteRefusal(request('no-cors'), origin)).toBeNull();
});

test('navigations are refused, whoever started them (a form post, a link, a typed address)', () => {
  expect(crossSiteRefusal(request('navigate'), origin)).toMatch(/navigation/);
  expect(crossSiteRefusal(request('navigate', { 'sec-fetch-site': 'same-origin' }), origin)).toMatch(/navigation/);
  expect(crossSiteRefusal(request('cors', { 'sec-fetch-mode': 'navigate' }), origin)).toMatch(/navigation/);
});

test('another site or origin is refused, also a same-site one on another port', () => {
  expect(crossSiteRefusal(request('no-cors', { 'sec-fetch-site': 'cross-site' }), origin)).toMatch(/cross-site/);
  expect(crossSiteRefusal(request('cors', { 'sec-fetch-site': 'same-site' }), origin)).toMatch(/same-site/);
  expect(crossSiteRefusal(request('cors', { 'sec-fetch-site': 'none' }), origin)).toMatch(/none/);
  expect(crossSiteRefusal(request('cors', { origin: 'http://127.0.0.1:9999' }), origin)).toMatch(/127\.0\.0\.1:9999/);
  expect(crossSiteRefusal(request('cors', { origin: 'null' }), origin)).toMatch(/null/);
});

test('the refusal is a 403 in OpenAI error shape', async () => {
  const response = refuseCrossSite(request('navigate'), origin)!;
  expect(response.status).toBe(403);
  const body = (await response.json()) as { error: Record<string, unknown> };
  expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'cross_origin_refused', param: null });
  expect(refuseCrossSite(request('cors'), origin)).toBeNull();
});
