/**
 * Ingestion: a file attached to a vector store is read (its text, extracted once), cut into
 * chunks, embedded when the store has an embedding model, written, and added to the store's
 * index — one file at a time, behind chat generation (a step waits while a response runs, so
 * a chat never waits on an upload). Each file ends `completed`, or `failed` with a
 * `last_error` that says why, alone: the other files of its batch go on. Cancelling (a batch's
 * `cancel`, detaching, deleting) aborts its work at the next step. Files a closed tab left
 * `in_progress` are resumed when the next runtime starts.
 */
import type { Embedder } from '../../ports/embedder';
import type { FileStore, StoredChunk, StoredStoreFile } from '../../ports/file-store';
import { ApiError, describeError } from '../../shared/api-error';
import { sleep } from '../../shared/abort';
import { chunkText, estimateTokens } from './chunk-text';
import type { FileLibrary } from './file-library';
import type { StoreIndexes } from './store-indexes';

/** Chunks embedded per call: small enough to wait behind a chat between calls. */
const EMBED_BATCH = 16;
/** How often a waiting ingestion looks whether generation has finished (ms). */
const BUSY_POLL_MS = 100;

export interface IngestionDeps {
  store: FileStore;
  library: FileLibrary;
  indexes: StoreIndexes;
  embedder: (id: string) => Embedder | undefined;
  busy: () => boolean;
}

interface Job {
  storeId: string;
  fileId: string;
  controller: AbortController;
}

type Failure = StoredStoreFile['last_error'] & {};

export class Ingestion {
  readonly #queue: Job[] = [];
  #running: Job | null = null;
  #draining: Promise<void> | null = null;
  #idleWaiters: Array<() => void> = [];

  constructor(private readonly deps: IngestionDeps) {}

  enqueue(storeId: string, fileId: string): void {
    this.#queue.push({ storeId, fileId, controller: new AbortController() });
    this.#draining ??= this.#drain().finally(() => {
      this.#draining = null;
      for (const wake of this.#idleWaiters.splice(0)) wake();
    });
  }

  /** Stops the queued and running work on files `which` selects; they are not written after this. */
  cancel(which: (storeId: string, fileId: string) => boolean): void {
    for (const job of [...this.#queue]) if (which(job.storeId, job.fileId)) this.#queue.splice(this.#queue.indexOf(job), 1);
    if (this.#running && which(this.#running.storeId, this.#running.fileId)) this.#running.controller.abort(new DOMException('Cancelled.', 'AbortError'));
  }

  /** Resolves once nothing is queued or running (tests, benchmarks, shutdown). */
  idle(): Promise<void> {
    if (!this.#draining) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Resumes what an earlier runtime left `in_progress`. */
  async resume(): Promise<number> {
    const rows = await this.deps.store.unfinishedStoreFiles();
    for (const row of rows) this.enqueue(row.vector_store_id, row.file_id);
    return rows.length;
  }

  async #drain(): Promise<void> {
    for (let job = this.#queue.shift(); job; job = this.#queue.shift()) {
      this.#running = job;
      try {
        await this.#ingest(job);
      } catch (err) {
        if (!job.controller.signal.aborted) console.error(`Ingestion of ${job.fileId} into ${job.storeId} failed: ${describeError(err)}`);
      } finally {
        this.#running = null;
      }
    }
    await this.deps.indexes.saveAll();
  }

  /** Waits while a response is running (chat generation goes first). */
  async #behindGeneration(signal: AbortSignal): Promise<void> {
    while (this.deps.busy()) await sleep(BUSY_POLL_MS, signal);
    signal.throwIfAborted();
  }

  async #ingest(job: Job): Promise<void> {
    const { store, library, indexes } = this.deps;
    const signal = job.controller.signal;
    await this.#behindGeneration(signal);
    const row = await store.getStoreFile(job.storeId, job.fileId);
    const vectorStore = await store.getVectorStore(job.storeId);
    if (!row || row.status !== 'in_progress' || !vectorStore) return;
    const finish = async (ended: StoredStoreFile, chunks: StoredChunk[] = []) => {
      signal.throwIfAborted();
      return store.finishStoreFile(ended, chunks);
    };
    const fail = (error: Failure) => finish({ ...row, status: 'failed', last_error: error, usage_bytes: 0, chunk_count: 0 });

    const file = await library.get(job.fileId);
    if (!file) return void (await fail({ code: 'invalid_file', message: `The file ${job.fileId} no longer exists.` }));
    const extraction = await library.textOf(file, signal);
    if (!extraction.ok) return void (await fail({ code: extraction.code, message: extraction.message }));
    const texts = chunkText(extraction.text, row.chunking);
    if (texts.length === 0) return void (await fail({ code: 'invalid_file', message: `No text could be read from ${JSON.stringify(file.filename)}.` }));

    let vectors: Array<Float32Array | null> = texts.map(() => null);
    if (vectorStore.embedder) {
      const embedder = this.deps.embedder(vectorStore.embedder.model);
      if (!embedder)
        return void (await fail({ code: 'server_error', message: `The embedding model ${vectorStore.embedder.model} of this vector store is not available in this runtime.` }));
      try {
        vectors = await this.#embed(embedder, texts, signal);
      } catch (err) {
        if (signal.aborted) throw err;
        // An ApiError's message is already a sentence for a person (a provider's names it).
        const why = err instanceof ApiError ? err.data.message : describeError(err);
        return void (await fail({ code: 'server_error', message: `Embedding the file with ${embedder.info.id} failed: ${why}` }));
      }
      const made = vectors[0]?.length ?? 0;
      const expected = vectorStore.embedder.dimensions;
      // A provider's model says its length only with its first vectors: the store learns it
      // then. Vectors of another length are another model's: a store never mixes them.
      if (expected === 0) await this.#learnDimensions(job.storeId, made, signal);
      else if (made !== expected)
        return void (await fail({
          code: 'server_error',
          message: `${embedder.info.id} made vectors of ${made} dimensions, but this vector store's have ${expected}: the model behind that name has changed. A store never mixes two models' vectors; make a new vector store for this file.`,
        }));
    }
    const chunks: StoredChunk[] = texts.map((text, index) => ({ vector_store_id: job.storeId, file_id: job.fileId, index, text, vector: vectors[index] ?? null }));
    const dimensions = vectors[0]?.length ?? 0;
    const usage = new TextEncoder().encode(extraction.text).length + chunks.length * dimensions * 4;
    const written = await finish({ ...row, status: 'completed', last_error: null, usage_bytes: usage, chunk_count: chunks.length }, chunks).catch(async (err: unknown) => {
      if (signal.aborted) throw err;
      await fail({ code: 'server_error', message: `The file's chunks could not be stored (${describeError(err)}). Free some space and add the file again.` }).catch(() => false);
      return false;
    });
    if (written) await indexes.fileCompleted(job.storeId, job.fileId, chunks.map((c) => ({ fileId: c.file_id, index: c.index, text: c.text, vector: c.vector })));
  }

  /** Records the length of a store's vectors, once, when its model (a provider's) first said it. */
  async #learnDimensions(storeId: string, dimensions: number, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const latest = await this.deps.store.getVectorStore(storeId);
    if (latest?.embedder && latest.embedder.dimensions === 0) await this.deps.store.putVectorStore({ ...latest, embedder: { ...latest.embedder, dimensions } });
  }

  /** The chunks' vectors, a batch at a time, each input cut to what the model embeds whole. */
  async #embed(embedder: Embedder, texts: string[], signal: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += EMBED_BATCH) {
      await this.#behindGeneration(signal);
      const batch = texts.slice(i, i + EMBED_BATCH).map((t) => fitTokens(t, embedder.info.max_input_tokens));
      const { vectors } = await embedder.embed(batch, { kind: 'document', signal, truncate: true });
      out.push(...vectors);
    }
    return out;
  }
}

/** `text` cut (at a space when it can be) to about `max` tokens: what an embedding model reads whole. */
export function fitTokens(text: string, max: number): string {
  if (estimateTokens(text) <= max) return text;
  let end = Math.floor((text.length * max) / Math.max(1, estimateTokens(text)));
  const space = text.lastIndexOf(' ', end);
  if (space > end / 2) end = space;
  return text.slice(0, end);
}
