/**
 * The runtime worker's control API, exposed with Comlink. HTTP-shaped traffic does not go
 * through here (see `serveRequests`); this is for the page that owns the worker.
 * Load-model and progress events will join later.
 */
export interface RuntimeStartOptions {
  /** Register the `test-scripted` model. */
  testModels: boolean;
}

export interface RuntimeStatus {
  state: 'starting' | 'ready' | 'failed';
  /** The Web Lock this runtime holds for its life; unique per runtime instance. */
  runtimeLock: string;
  testModels: boolean;
  /** Set when `state` is `failed`: why the server could not start. */
  error?: string;
}

/** What the pipeline benchmark measures inside the worker (no transport at all). */
export interface DirectStreamTiming {
  /** ms from calling the server to the first body byte. */
  firstByteMs: number;
  /** ms from calling the server to the first `response.output_text.delta`. */
  firstDeltaMs: number;
  /** ms from calling the server to the end of the body. */
  totalMs: number;
  deltas: number;
}

export interface RuntimeControl {
  /** Starts the server (once); later calls return the current status. */
  start(options: RuntimeStartOptions): Promise<RuntimeStatus>;
  status(): Promise<RuntimeStatus>;
  /** Serves requests arriving on `port` (transfer it). Resolves with this runtime's lock name. */
  connect(port: MessagePort): Promise<string>;
  /** Benchmark baseline: POSTs `body` to `/v1/responses` in-worker and reads the SSE body. */
  streamDirect(body: string): Promise<DirectStreamTiming>;
}
