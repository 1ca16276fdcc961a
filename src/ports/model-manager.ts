/**
 * The model-management port behind `/v1/local/*`: what the chat app needs beyond OpenAI's
 * API (download with progress, cache, storage, GPU support). It is HTTP like the rest, so
 * every tab of the origin can manage models through the service worker, not only the
 * leader tab that hosts the runtime. The shapes it answers with are the wire contract in
 * `protocol/local-status.ts`.
 */
import type { LoadProgress, LocalStatus } from '../protocol/local-status';

export interface ModelManager {
  status(): Promise<LocalStatus>;
  /** Downloads and prepares `id`, reporting progress until it is ready; aborting cancels the download. */
  load(id: string, onProgress: (p: LoadProgress) => void, signal: AbortSignal): Promise<void>;
  /** Removes `id`'s files from the cache (unloading it first if loaded). */
  deleteCached(id: string): Promise<void>;
  /**
   * Whether `id` can run without a download: loaded, its build for this device cached, or a
   * model with nothing to download. Absent: every model counts as on the device.
   */
  onDevice?(id: string): Promise<boolean>;
}
