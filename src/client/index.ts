export { startLocalRuntime, type LocalRuntime, type StartLocalRuntimeOptions } from './start-local-runtime';
export { createRuntimeFetch } from './runtime-fetch';
export { MODEL_BASE_STORAGE_KEY, setStoredModelBase, storedModelBase } from './model-base';
export { RUNTIME_OPTIONS_STORAGE_KEY, setStoredRuntimeOptions, storedRuntimeOptions, type StoredRuntimeOptions } from './stored-runtime-options';
export type { RuntimeControl, RuntimeStatus } from '../runtime/control-api';
export type { RetentionPolicy } from '../server/retention';
export { SKIP_WAITING_MESSAGE } from '../transport/sw-messages';
export { type OfflineFilesWatch } from './offline-files';
export type { OfflineFilesStatus, OfflineFeature } from '../protocol/offline-files';
