/**
 * Entry of the chat app: starts (or joins) the origin's local runtime, and renders the app
 * at once — conversations come from the app's own database, so they show while the
 * runtime starts, and offline.
 */
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { startLocalRuntime } from '../client';
import { createApi } from './api';
import { App } from './app';
import { AppContext, type AppServices, type RuntimeState } from './app-context';
import { openAppDb } from './app-db';
import { ChatStore } from './chat-store';
import { ModelsStore } from './models-store';
import { SettingsStore } from './settings-store';
import { installTestHooks } from './test-hooks';
import { toolsConfigWithMcpServers, toolsConfigWithProvider } from './runtime-tools-config';
import { toolsConfigFromQuery } from '../tools/tools-config';
import './styles.css';

const params = new URLSearchParams(location.search);
// Test models: always in dev; in a production build only when asked for in the URL.
const testModels = import.meta.env.DEV || params.has('test-models');
// Benchmark knob (`?body-mode=stream`), honoured only with test models.
const bodyMode = testModels && params.get('body-mode') === 'stream' ? 'stream' : undefined;

const db = openAppDb();
const settings = new SettingsStore(db);

// The runtime starts with the user's search provider (a settings read: a few ms).
const started = settings.ready
  .then(() => {
    const base = testModels ? toolsConfigFromQuery(location.search) : {};
    const tools = toolsConfigWithMcpServers(toolsConfigWithProvider(base, settings.settings().webSearchProviderUrl), settings.settings().mcpServers);
    return startLocalRuntime({ testModels, bodyMode, tools });
  })
  .then(async (runtime) => {
    if (testModels) await installTestHooks(runtime);
    return runtime;
  });
started.catch(() => {}); // shown by <Root> once it mounts; not an unhandled rejection
const chat = new ChatStore(db, settings.settings);
const models = new ModelsStore();
const api = started.then((runtime) => createApi(runtime.fetch));
api.then(
  (a) => {
    chat.connect(a);
    models.connect(a);
  },
  () => {},
);
// Tests (and links) may pick the model: `?model=test-scripted`.
const requestedModel = params.get('model');
if (requestedModel) void settings.ready.then(() => settings.update({ model: requestedModel }));

const services: AppServices = { chat, models, settings, testModels, api };

function Root() {
  const [runtime, setRuntime] = useState<RuntimeState>({ state: 'starting' });
  useEffect(() => {
    started.then(
      (r) => setRuntime({ state: 'ready', leader: r.isLeader() }),
      (error: unknown) => setRuntime({ state: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  }, []);
  return (
    <AppContext.Provider value={services}>
      <App runtime={runtime} />
    </AppContext.Provider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
