/**
 * The load progress of one engine: which model is loading, the last report, and who is
 * listening (the engine's `onProgress` option, `/v1/local` downloads). Both real engines
 * report through one of these, so "the load under way" means the same for both.
 */
import type { LoadProgress } from '../protocol/local-status';

export class LoadReports {
  private last: LoadProgress | null = null;
  private model: string | null = null;
  private readonly listeners = new Set<(progress: LoadProgress) => void>();

  constructor(private readonly onProgress?: (progress: LoadProgress) => void) {}

  /** The model being loaded, if any. */
  get loading(): string | null {
    return this.model;
  }

  /** Runs `task` (a load of `model`) with `model` marked as loading. */
  async during<T>(model: string, task: () => Promise<T>): Promise<T> {
    this.model = model;
    try {
      return await task();
    } finally {
      this.model = null;
    }
  }

  report(progress: LoadProgress): void {
    this.last = progress;
    this.onProgress?.(progress);
    for (const listener of this.listeners) listener(progress);
  }

  /** The last report (null before any load). */
  latest(): LoadProgress | null {
    return this.last;
  }

  /** Progress of the load under way, or null when nothing is loading. */
  current(): LoadProgress | null {
    return this.model && this.last?.model === this.model ? this.last : null;
  }

  /** Calls `listener` with every report until the returned function is called. */
  subscribe(listener: (progress: LoadProgress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** An engine that loads models and reports how its loads go. */
export interface ReportsLoads {
  readonly loadReports: LoadReports;
  ensureLoaded(model: string, signal: AbortSignal): Promise<void>;
}

/** Loads `model` (downloading what is not cached), calling `onProgress` with its reports only (another load may report meanwhile). */
export async function loadWithProgress(engine: ReportsLoads, model: string, onProgress: (progress: LoadProgress) => void, signal: AbortSignal): Promise<void> {
  const stop = engine.loadReports.subscribe((progress) => {
    if (progress.model === model) onProgress(progress);
  });
  try {
    await engine.ensureLoaded(model, signal);
  } finally {
    stop();
  }
}
