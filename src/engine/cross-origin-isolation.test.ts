import { expect, test } from 'vitest';
import { isolationStatus } from './cross-origin-isolation';

test('isolated: no reason', () => {
  expect(isolationStatus({ crossOriginIsolated: true, isSecureContext: true })).toEqual({ crossOriginIsolated: true, reason: null });
});

test('not isolated: the status says why and what it costs', () => {
  const { crossOriginIsolated, reason } = isolationStatus({ crossOriginIsolated: false, isSecureContext: true });
  expect(crossOriginIsolated).toBe(false);
  expect(reason).toMatch(/^not cross-origin isolated: the page was served without COOP\/COEP/);
  expect(reason).toMatch(/one thread/);
});

test('an insecure context, or a browser without isolation, is named as the cause', () => {
  expect(isolationStatus({ crossOriginIsolated: false, isSecureContext: false }).reason).toMatch(/not a secure context/);
  expect(isolationStatus({ isSecureContext: true }).reason).toMatch(/does not support cross-origin isolation/);
});
