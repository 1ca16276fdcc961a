/**
 * `local-responses`: the page-side entry. Everything here runs before `/v1` answers, so it
 * stays small (a unit test holds it to 30 kB gzipped): engines and tools load in the runtime
 * worker, on demand.
 *
 * @example
 * import OpenAI from 'openai';
 * import { startLocalRuntime, localFetch } from 'local-responses';
 * await startLocalRuntime();
 * const client = new OpenAI({ baseURL: location.origin + '/v1', apiKey: 'local', dangerouslyAllowBrowser: true, fetch: localFetch });
 * installLocalWebSocket(); // `new WebSocket('ws(s)://<this origin>/v1/responses')` reaches the runtime
 */
export { startLocalRuntime, type LocalRuntime, type StartLocalRuntimeOptions } from '../client/start-local-runtime';
export { localFetch } from '../client/local-fetch';
export { LocalWebSocket, installLocalWebSocket, isLocalResponsesSocketUrl, type WebSocketSecondArgument } from '../client/local-websocket';
export { MODEL_BASE_STORAGE_KEY, setStoredModelBase, storedModelBase } from '../client/model-base';
export { RUNTIME_OPTIONS_STORAGE_KEY, setStoredRuntimeOptions, storedRuntimeOptions, type StoredRuntimeOptions } from '../client/stored-runtime-options';
export type { RuntimeControl, RuntimeStatus } from '../runtime/control-api';
export type { CpuEngineAssets, CpuEngineOptions, ProviderOptions, RouteOptions, McpToolConfig, PyodideAssets, PythonToolConfig, RetentionPolicy, ToolsConfig, WebSearchToolConfig } from '../protocol/runtime-options';
export { SKIP_WAITING_MESSAGE } from '../transport/sw-messages';
export { type OfflineFilesWatch } from '../client/offline-files';
export type { OfflineFilesStatus, OfflineFeature } from '../protocol/offline-files';
