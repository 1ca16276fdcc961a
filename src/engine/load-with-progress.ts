/** A model load that reports that model's progress only (other loads may report meanwhile). */
import type { LoadProgress } from './engine';

export interface ReportsLoads {
  onLoadProgress(listener: (progress: LoadProgress) => void): () => void;
  ensureLoaded(model: string, signal: AbortSignal): Promise<void>;
}

/** Loads `model` (downloading what is not cached), calling `onProgress` with its reports until it is ready or fails. */
export async function loadWithProgress(engine: ReportsLoads, model: string, onProgress: (progress: LoadProgress) => void, signal: AbortSignal): Promise<void> {
  const stop = engine.onLoadProgress((progress) => {
    if (progress.model === model) onProgress(progress);
  });
  try {
    await engine.ensureLoaded(model, signal);
  } finally {
    stop();
  }
}
