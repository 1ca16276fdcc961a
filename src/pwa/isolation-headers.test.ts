import { expect, test } from 'vitest';
import { embedderPolicyFor, isolationHeaders } from './isolation-headers';
import { withSecurityHeaders } from './security-headers';

const CHROME_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const SAFARI_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Safari/605.1.15';

test('Chromium-based browsers get credentialless, from their client hints or their User-Agent', () => {
  expect(embedderPolicyFor({ brands: '"Chromium";v="156", "Not-A.Brand";v="24", "Google Chrome";v="156"' })).toBe('credentialless');
  expect(embedderPolicyFor({ brands: [{ brand: 'Microsoft Edge', version: '140' }, { brand: 'Chromium', version: '140' }] })).toBe('credentialless');
  expect(embedderPolicyFor({ userAgent: CHROME_UA })).toBe('credentialless');
  // Before Chromium 96 the value is unknown (it would mean no isolation at all).
  expect(embedderPolicyFor({ userAgent: CHROME_UA.replace('156.0', '95.0') })).toBe('require-corp');
});

test('Firefox gets credentialless from 119 on; Safari and unknown browsers get require-corp', () => {
  expect(embedderPolicyFor({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0' })).toBe('credentialless');
  expect(embedderPolicyFor({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Firefox/115.0' })).toBe('require-corp');
  expect(embedderPolicyFor({ userAgent: SAFARI_UA })).toBe('require-corp');
  expect(embedderPolicyFor({ userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/140.0 Mobile/15E148 Safari/604.1' })).toBe('require-corp');
  expect(embedderPolicyFor({})).toBe('require-corp');
});

test('COOP same-origin goes with either COEP', () => {
  expect(isolationHeaders({ userAgent: SAFARI_UA })).toEqual({ 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' });
});

test('what the service worker serves from the precache carries them, with the security headers', () => {
  const served = withSecurityHeaders(new Response('<!doctype html>', { headers: { 'content-type': 'text/html' } }), { userAgent: CHROME_UA });
  expect(served.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(served.headers.get('cross-origin-embedder-policy')).toBe('credentialless');
  expect(served.headers.get('content-security-policy')).toContain("default-src 'self'");
  expect(served.headers.get('content-type')).toBe('text/html');
});
