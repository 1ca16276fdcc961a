/**
 * What the two real engines' parts of `/v1/local/*` share: which ids they own, the loaded
 * model, the load under way, and a load that reports that model's progress. Each engine
 * says itself what is downloaded and how a model is deleted.
 */
import type { LoadProgress, LocalModelStatus } from '../protocol/local-status';
import type { ModelInfo } from '../ports/engine';
import type { EngineModels } from '../ports/engine-models';
import { loadWithProgress, type ReportsLoads } from './load-reports';

export interface DownloadingEngine extends ReportsLoads {
  models(): ModelInfo[];
  /** The model ready to generate, if any. */
  loadedModel(): string | null;
}

export abstract class DownloadableModels<E extends DownloadingEngine> implements EngineModels {
  constructor(protected readonly engine: E) {}

  abstract models(): Promise<LocalModelStatus[]>;
  abstract deleteCached(id: string): Promise<void>;

  has(id: string): boolean {
    return this.engine.models().some((m) => m.id === id);
  }

  loaded(): string | null {
    return this.engine.loadedModel();
  }

  loading(): LoadProgress | null {
    return this.engine.loadReports.current();
  }

  /**
   * Loads `id` (downloading what is not cached), reporting its progress; resolves once it is
   * ready to generate. Aborting `signal` stops the download (what was fetched stays cached)
   * and rejects.
   */
  load(id: string, onProgress: (progress: LoadProgress) => void, signal: AbortSignal): Promise<void> {
    return loadWithProgress(this.engine, id, onProgress, signal);
  }
}
