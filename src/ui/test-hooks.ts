import OpenAI from 'openai';
import type { LocalRuntime } from 'local-responses';

/**
 * Globals the end-to-end tests drive (only with `?test-models`): the real `openai` SDK
 * (the app itself is built on it) and the runtime handle.
 */
declare global {
  interface Window {
    OpenAI?: typeof OpenAI;
    /** The SDK as an app on this origin would use it: through the service worker. */
    sdk?: OpenAI;
    localRuntime?: LocalRuntime;
  }
}

export async function installTestHooks(runtime: LocalRuntime): Promise<void> {
  const SDK = OpenAI;
  window.OpenAI = SDK;
  // maxRetries 0: a 5xx must fail the test, not be retried silently.
  window.sdk = new SDK({ baseURL: `${location.origin}/v1`, apiKey: 'local', dangerouslyAllowBrowser: true, maxRetries: 0 });
  window.localRuntime = runtime;
}
