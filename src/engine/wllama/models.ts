/**
 * The wllama (CPU) engine's part of `/v1/local/*`: which GGUF models are in wllama's cache,
 * downloading one ahead of use with progress (it is loaded into the engine, as web-llm's
 * are, so the first answer starts at once), deleting one.
 */
import type { LocalModelStatus } from '../../protocol/local-status';
import { DownloadableModels } from '../downloadable-models';
import type { WllamaEngine } from './engine';

export class WllamaModels extends DownloadableModels<WllamaEngine> {
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

  deleteCached(id: string): Promise<void> {
    return this.engine.deleteCached(id);
  }
}
