/**
 * `localFetch`: the `fetch` to hand the `openai` SDK when there may be no service worker
 * (blocked, private mode, a page outside the SW's scope), or when `startLocalRuntime` was
 * told `directFetch: false`. It answers `/v1/*` of this origin from the runtime this page
 * started or joined with `startLocalRuntime`, straight over a MessagePort (in a tab that does
 * not run the runtime, one connected once through the service worker); every other URL goes
 * to the network.
 *
 * @example
 * await startLocalRuntime();
 * const client = new OpenAI({ baseURL: location.origin + '/v1', apiKey: 'local',
 *   dangerouslyAllowBrowser: true, fetch: localFetch });
 */
import { Codes } from '../shared/error-codes';
import { transportError, transportErrorResponse } from '../transport/transport-error';

interface RuntimeWithFetch {
  readonly fetch: typeof fetch;
}

// One runtime per page (startLocalRuntime is called once), so one slot: what lets
// `localFetch` be a plain function an SDK can be given before the runtime has started.
let current: Promise<RuntimeWithFetch> | undefined;

/** Called by `startLocalRuntime` with the runtime it starts (settles once `/v1` answers). */
export function setCurrentRuntime(runtime: Promise<RuntimeWithFetch>): void {
  current = runtime;
  runtime.catch(() => {}); // the caller of startLocalRuntime sees the failure
}

export const localFetch: typeof fetch = async (input, init) => {
  if (!current) {
    return transportErrorResponse(
      503,
      transportError(Codes.runtimeUnavailable, 'No local runtime in this page: call startLocalRuntime() before sending requests with localFetch.'),
    );
  }
  return (await current).fetch(input, init);
};
