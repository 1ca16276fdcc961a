/**
 * The wllama (CPU) engine's part of `/v1/local/*`: which GGUF models are in wllama's cache,
 * downloading one ahead of use with progress (it is loaded into the engine, as web-llm's
 * are, so the first answer starts at once), deleting one.
 */
import type { LoadProgress } from './engine';
import { loadWithProgress } from './load-with-progress';
import type { EngineModels, LocalModelStatus } from '../server/model-manager';
import type { WllamaEngine } from './wllama-engine';

export class WllamaModels implements EngineModels {
  constructor(private readonly engine: WllamaEngine) {}

  has(id: string): boolean {
    return this.engine.models().some((m) => m.id === id);
  }

  /** Per model: whether its GGUF is completely downloaded (`variant`: the file). */
  async models(): Promise<LocalModelStatus[]> {
    const cached = await this.engine.cachedModels();
    const loaded = this.engine.loadedModel();
    return this.engine.catalogEntries().map(
      (entry): LocalModelStatus => ({
        id: entry.id,
        variant: entry.file,
        cached: cached.has(entry.id),
        cachedVariants: cached.has(entry.id) ? [entry.file] : [],
        loaded: loaded === entry.id,
      }),
    );
  }

  loaded(): string | null {
    return this.engine.loadedModel();
  }

  loading(): LoadProgress | null {
    return this.engine.currentLoad();
  }

  /** Downloads `id` (unless cached) and loads it, reporting progress; aborting cancels the download. */
  load(id: string, onProgress: (progress: LoadProgress) => void, signal: AbortSignal): Promise<void> {
    return loadWithProgress(this.engine, id, onProgress, signal);
  }

  deleteCached(id: string): Promise<void> {
    return this.engine.deleteCached(id);
  }
}
