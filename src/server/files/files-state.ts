/**
 * What the Files and Vector Stores APIs, the `file_search` tool and `input_file` share: the
 * file store, the text extractor, the search indexes, the embedding models, and the
 * ingestion that runs behind chat generation. Absent from a server given no file store.
 */
import type { Embedder } from '../../ports/embedder';
import type { FileStore } from '../../ports/file-store';
import type { SearchIndexes } from '../../ports/search-index';
import type { TextExtractor } from '../../ports/text-extractor';
import { serverError } from '../../shared/api-error';
import { FileLibrary } from './file-library';
import { Ingestion } from './ingestion';
import { StoreIndexes } from './store-indexes';

export interface FilesOptions {
  store: FileStore;
  extractor: TextExtractor;
  indexes: SearchIndexes;
  /**
   * The embedding model new vector stores embed their chunks with (an id of `embedders`, or a
   * provider's model `<provider>/<upstream id>`);
   * absent: stores search by keyword only. A store keeps the model it was made with.
   */
  embeddingModel?: string;
  /** The largest upload (default protocol/files.ts's MAX_FILE_BYTES). */
  maxFileBytes?: number;
  /** How often clients are told to poll an `in_progress` object (`openai-poll-after-ms`), ms. */
  pollAfterMs?: number;
}

export interface FilesState {
  store: FileStore;
  library: FileLibrary;
  indexes: StoreIndexes;
  ingestion: Ingestion;
  /** The embedding model of this id: a local one, or a provider's (`<provider>/<upstream id>`). */
  embedder: (id: string) => Embedder | undefined;
  embeddingModel: string | null;
  maxFileBytes: number;
  pollAfterMs: number;
  now: () => number;
}

export interface FilesEnv {
  embedder: (id: string) => Embedder | undefined;
  now: () => number;
  /** Whether a response is running: ingestion waits behind it. */
  busy: () => boolean;
  maxFileBytes: number;
}

/** The runtime's files, or the 500 that says this runtime has none. */
export function filesOf(state: { files?: FilesState }): FilesState {
  if (!state.files) throw serverError('Files are not available in this runtime (it was started without a file store).');
  return state.files;
}

export function createFilesState(options: FilesOptions, env: FilesEnv): FilesState {
  const library = new FileLibrary(options.store, options.extractor, env.now);
  const indexes = new StoreIndexes(options.store, options.indexes);
  const ingestion = new Ingestion({ store: options.store, library, indexes, embedder: env.embedder, busy: env.busy });
  return {
    store: options.store,
    library,
    indexes,
    ingestion,
    embedder: env.embedder,
    embeddingModel: options.embeddingModel ?? null,
    maxFileBytes: options.maxFileBytes ?? env.maxFileBytes,
    pollAfterMs: options.pollAfterMs ?? 200,
    now: env.now,
  };
}
