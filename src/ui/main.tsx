/**
 * Placeholder page: starts the local runtime and shows its status. The chat UI replaces it
 * in a later issue.
 */
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { startLocalRuntime } from '../client';
import { installTestHooks } from './test-hooks';

const params = new URLSearchParams(location.search);
// Test models: always in dev; in a production build only when asked for in the URL.
const testModels = import.meta.env.DEV || params.has('test-models');
// Benchmark knob (`?body-mode=stream`), honoured only with test models.
const bodyMode = testModels && params.get('body-mode') === 'stream' ? 'stream' : undefined;

type Status = { state: 'starting' } | { state: 'ready'; leader: boolean } | { state: 'failed'; message: string };

const started = startLocalRuntime({ testModels, bodyMode }).then(async (runtime) => {
  if (testModels) await installTestHooks(runtime);
  return runtime;
});
started.catch(() => {}); // shown by <App> once it mounts; not an unhandled rejection

function App() {
  const [status, setStatus] = useState<Status>({ state: 'starting' });
  useEffect(() => {
    started.then(
      (runtime) => setStatus({ state: 'ready', leader: runtime.isLeader() }),
      (error: unknown) => setStatus({ state: 'failed', message: String(error) }),
    );
  }, []);
  return (
    <main>
      <h1>Local Responses</h1>
      <p data-runtime-state={status.state}>
        {status.state === 'starting' && 'Starting the local runtime…'}
        {status.state === 'ready' &&
          `Ready: /v1 answers on ${location.origin}/v1${status.leader ? ' (this tab runs the runtime)' : ''}.`}
        {status.state === 'failed' && `The local runtime failed to start: ${status.message}`}
      </p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
