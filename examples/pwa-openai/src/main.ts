/**
 * The page: start (or join) the local runtime, then use the `openai` SDK as with any
 * Responses API. Two clients, to show both paths:
 * - `client`: plain `fetch`, which `startLocalRuntime` routes straight to the runtime for
 *   `/v1` (its `directFetch` option; other code of the origin, such as a worker or a page
 *   that does not start the runtime, is answered by this app's own service worker, src/sw.ts);
 * - `localClient`: `fetch: localFetch`, which needs no service worker at all.
 */
import OpenAI from 'openai';
import { localFetch, startLocalRuntime } from 'local-responses';

// The scripted test model is an explicit option, here from the build's environment
// (`VITE_TEST_MODELS=1 vite build`) — never from the page URL.
const testModels = import.meta.env.VITE_TEST_MODELS === '1';
const model = testModels ? 'test-scripted' : 'Qwen3-1.7B-q4f16_1-MLC';

const status = document.querySelector('[data-status]')!;
const answer = document.querySelector('[data-answer]')!;
const form = document.querySelector('form')!;

const runtime = await startLocalRuntime({ testModels });
const options = { baseURL: `${location.origin}/v1`, apiKey: 'local', dangerouslyAllowBrowser: true, maxRetries: 0 };
const client = new OpenAI(options);
const localClient = new OpenAI({ ...options, fetch: localFetch });

status.textContent = runtime.isLeader() ? 'The runtime runs in this tab.' : 'The runtime runs in another tab.';
form.querySelector('button')!.disabled = false;
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  answer.textContent = '';
  const input = String(new FormData(form).get('prompt'));
  const stream = await (runtime.serviceWorker ? client : localClient).responses.create({ model, input, stream: true });
  for await (const part of stream) {
    if (part.type === 'response.output_text.delta') answer.textContent += part.delta;
  }
});

// For the end-to-end test of the package (test/e2e/package-example.test.ts in the repository).
Object.assign(window, { example: { client, localClient, runtime, model } });
