/**
 * Entry of the chat app: starts (or joins) the origin's local runtime, and renders the app
 * at once — conversations come from the app's own database, so they show while the
 * runtime starts, and offline.
 */
import '../protocol/zod-without-eval'; // first: before any schema is created
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { installLocalWebSocket, startLocalRuntime, storedRuntimeOptions } from 'local-responses';
import { cpuEngine } from 'local-responses/cpu';
import { createApi } from './api';
import { App } from './app';
import { AppContext, type AppServices, type RuntimeState } from './app-context';
import { openAppDb } from './app-db';
import { ChatStore } from './chat-store';
import { ChatFilesStore } from './chat-files';
import { InstallPromptStore } from './install-prompt';
import { McpTokenStore } from './mcp-tokens';
import { ModelsStore } from './models-store';
import { OfflineFilesStore } from './offline-files-store';
import { SettingsStore } from './settings-store';
import { installTestHooks } from './test-hooks';
import { toolsConfigWithMcpServers, toolsConfigWithProvider } from './runtime-tools-config';
import './styles.css';

// Test models: always in dev; in a production build only when asked for in the URL. It is
// the one thing a URL may change (test harnesses rely on it), and it is never saved: the
// mirror, the search provider, private-network access, limits and the chosen model come
// from the app's settings (or storage a test sets before load), never from a link.
const testModels = import.meta.env.DEV || new URLSearchParams(location.search).has('test-models');
// The browser's own fetch, before startLocalRuntime routes `/v1` past the service worker:
// the tests' SDK that goes through the service worker (window.swSdk) uses it.
const browserFetch = globalThis.fetch.bind(globalThis);

// WebSocket mode for any script of the origin: `new WebSocket(location.origin.replace(/^http/, 'ws') + '/v1/responses')`
// reaches the runtime (any other URL gets the browser's own WebSocket).
installLocalWebSocket();

const db = openAppDb();
const settings = new SettingsStore(db);

// The runtime starts with the user's search provider and retention (a settings read: a few ms).
const started = settings.ready
  .then(() => {
    const { webSearchProviderUrl, retention, mcpServers } = settings.settings();
    const base = toolsConfigWithMcpServers(toolsConfigWithProvider(storedRuntimeOptions().tools ?? {}, webSearchProviderUrl), mcpServers);
    // This app serves pyodide itself, under /pyodide/ (vite.config.ts), and runs GGUF models on the CPU.
    const tools = base.python === false ? base : { ...base, python: { ...base.python, assets: new URL('/pyodide/', location.href).href } };
    return startLocalRuntime({ testModels, tools, retention, cpuEngine });
  })
  .then(async (runtime) => {
    if (testModels) await installTestHooks(runtime, browserFetch);
    return runtime;
  });
started.catch(() => {}); // shown by <Root> once it mounts; not an unhandled rejection
const mcpTokens = new McpTokenStore();
const chat = new ChatStore(db, settings.settings, mcpTokens.tokens);
const models = new ModelsStore();
const files = new ChatFilesStore(chat);
const api = started.then((runtime) => createApi(runtime.fetch));
api.then(
  (a) => {
    files.connect(a);
    chat.connect(a);
    models.connect(a);
  },
  () => {},
);

const offlineFiles = new OfflineFilesStore();
started.then((runtime) => offlineFiles.connect(runtime.offlineFiles), () => {});

// Listening from the start: the browser may offer installation before the app has mounted.
const install = new InstallPromptStore();
const services: AppServices = { chat, files, models, settings, mcpTokens, testModels, api, offlineFiles, install };

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
