import OpenAI from 'openai';
import type { LocalRuntime } from 'local-responses';

/**
 * Globals the end-to-end tests drive (only with `?test-models`): the real `openai` SDK
 * (the app itself is built on it) and the runtime handle.
 */
declare global {
  interface Window {
    OpenAI?: typeof OpenAI;
    /**
     * The SDK as an app on this origin would use it: its global `fetch`, which
     * `startLocalRuntime` routes straight to the runtime for `/v1`.
     */
    sdk?: OpenAI;
    /** The SDK on the browser's own `fetch`: `/v1` through the service worker, as any code the routing does not reach. */
    swSdk?: OpenAI;
    /** The browser's own `fetch` (`/v1` through the service worker). */
    browserFetch?: typeof fetch;
    localRuntime?: LocalRuntime;
  }
}

export async function installTestHooks(runtime: LocalRuntime, browserFetch: typeof fetch): Promise<void> {
  const SDK = OpenAI;
  window.OpenAI = SDK;
  // maxRetries 0: a 5xx must fail the test, not be retried silently.
  window.sdk = new SDK({ baseURL: `${location.origin}/v1`, apiKey: 'local', dangerouslyAllowBrowser: true, maxRetries: 0 });
  window.swSdk = new SDK({ baseURL: `${location.origin}/v1`, apiKey: 'local', dangerouslyAllowBrowser: true, maxRetries: 0, fetch: browserFetch });
  window.browserFetch = browserFetch;
  window.localRuntime = runtime;
}
