/**
 * Whether this context is cross-origin isolated, and if not why, for `/v1/local/status`.
 * Isolation is what gives `SharedArrayBuffer`: wllama's thread pool and the Python
 * sandbox's interrupt buffer need it. The runtime worker asks about itself: it is isolated
 * exactly when the page that started it is (its script carries the same headers).
 */
import type { IsolationStatus } from '../protocol/local-status';

/** What is read of the global scope (a test passes its own). */
export interface IsolationScope {
  crossOriginIsolated?: boolean;
  isSecureContext?: boolean;
}

export function isolationStatus(scope: IsolationScope = globalThis as IsolationScope): IsolationStatus {
  if (scope.crossOriginIsolated === true) return { crossOriginIsolated: true, reason: null };
  const effect = 'so the CPU engine runs on one thread and a Python call over its time limit loses its interpreter’s state';
  let why: string;
  if (scope.isSecureContext === false) why = 'the page is not a secure context (serve it over https, or from localhost)';
  else if (scope.crossOriginIsolated === undefined) why = 'this browser does not support cross-origin isolation';
  else why = 'the page was served without COOP/COEP (Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: credentialless or require-corp)';
  return { crossOriginIsolated: false, reason: `not cross-origin isolated: ${why}, ${effect}.` };
}
