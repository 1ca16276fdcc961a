/**
 * The port through which an engine takes part in `/v1/local/*`: its models' cache state,
 * loading one with progress, deleting one. Each downloading engine implements it
 * (`DownloadableModels`); the server's `RuntimeModelManager` joins them. It lives on the
 * engine side so that engines need nothing from `server/`.
 */
import type { LoadProgress, LocalModelStatus } from '../protocol/local-status';

export interface EngineModels {
  /** Whether `id` is one of this engine's models. */
  has(id: string): boolean;
  models(): Promise<LocalModelStatus[]>;
  /** This engine's model ready to generate, if any. */
  loaded(): string | null;
  /** This engine's load in progress, if any. */
  loading(): LoadProgress | null;
  load(id: string, onProgress: (p: LoadProgress) => void, signal: AbortSignal): Promise<void>;
  deleteCached(id: string): Promise<void>;
}
