/**
 * The runtime worker's control API, exposed with Comlink. HTTP-shaped traffic does not go
 * through here (see `serveRequests`); this is for the page that owns the worker. Model
 * loading and its progress are HTTP too (`/v1/local/*`), so every tab can use them.
 */
import type { RuntimeStartOptions } from '../protocol/runtime-options';

/**
 * What the page that started the runtime does for it: things only a window can do. Passed
 * to `start` as a Comlink proxy.
 */
export interface PageServices {
  /** `navigator.storage.persist()` (window-only); asked right before a model download. */
  requestPersist(): Promise<boolean>;
}

export interface RuntimeStatus {
  state: 'starting' | 'ready' | 'failed';
  /** The Web Lock this runtime holds for its life; unique per runtime instance. */
  runtimeLock: string;
  testModels: boolean;
  /** The model mirror in use, when one was given. */
  modelBase?: string;
  /** Set when `state` is `failed`: why the server could not start. */
  error?: string;
}

export interface RuntimeControl {
  /** Starts the server (once); later calls return the current status. `page`: a Comlink proxy. */
  start(options: RuntimeStartOptions, page?: PageServices): Promise<RuntimeStatus>;
  status(): Promise<RuntimeStatus>;
  /** Serves requests arriving on `port` (transfer it). Resolves with this runtime's lock name. */
  connect(port: MessagePort): Promise<string>;
  /**
   * Resolves once this runtime has given its first answer (a response completed, or ended
   * `incomplete`): what the page deferred so as not to slow that answer may be fetched now.
   */
  answered(): Promise<void>;
}
