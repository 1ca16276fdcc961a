/**
 * The face of `protocol/`: every wire contract (zod schemas and their types), the SSE codec
 * and OpenAI's error shape, for code outside the folder that wants them in one import.
 * A bundle that imports this face gets every schema and zod's full build: the UI imports
 * `local-status.ts` and `error-response.ts` directly (through the face its bundle was
 * measured 82 KB larger).
 */
export * from './conversation';
export * from './create-request';
export * from './error-response';
export * from './input-item-schemas';
export * from './local-status';
export * from './output-items';
export * from './response-object';
export * from './sse';
export * from './stream-events';
export * from './validation-error';
