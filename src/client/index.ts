export { startLocalRuntime, type LocalRuntime, type StartLocalRuntimeOptions } from './start-local-runtime';
export { createRuntimeFetch } from './runtime-fetch';
export type { RuntimeControl, RuntimeStatus } from '../runtime/control-api';
