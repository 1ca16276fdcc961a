/**
 * A vector store's search index (ports/search-index.ts): BM25 keyword search by minisearch
 * over the chunks' text, and cosine nearest neighbours over their vectors (brute force: a
 * store's vectors are one contiguous array per file, and 10,000 × 384 multiply-adds take a
 * few milliseconds).
 *
 * Keyword search is minisearch's default BM25+ (k 1.2, b 0.7, d 0.5), terms joined by OR, with
 * neither prefix nor fuzzy matching: both cost far more than they bring on chunks this long
 * (measured in the research notes: prefix p95 0.7 s over 10,000 chunks). Terms are lower-cased
 * and plural `s` endings folded (Harman's S-stemmer: `giraffes` finds `giraffe`), in the text
 * and the query alike. Texts are not kept in the index (the server reads a result's text from
 * its chunk row), only its terms.
 */
import MiniSearch, { type Options } from 'minisearch';
import type { ChunkHit, IndexedChunk, KeywordMatch, SearchIndexes, StoreIndex } from '../../ports/search-index';

interface Doc {
  id: string;
  text: string;
}

/** Harman's S-stemmer (1991): the plural endings `ies`, `es`, `s`, folded; nothing else. */
export function sStem(term: string): string {
  if (term.length <= 3) return term;
  if (term.endsWith('ies') && !term.endsWith('eies') && !term.endsWith('aies')) return `${term.slice(0, -3)}y`;
  if (term.endsWith('es') && !term.endsWith('aes') && !term.endsWith('ees') && !term.endsWith('oes')) return term.slice(0, -1);
  if (term.endsWith('s') && !term.endsWith('us') && !term.endsWith('ss')) return term.slice(0, -1);
  return term;
}

const processTerm = (term: string) => sStem(term.toLowerCase());
const OPTIONS: Options<Doc> = { fields: ['text'], storeFields: [], idField: 'id', processTerm };
const SNAPSHOT_VERSION = 1;

interface Snapshot {
  version: typeof SNAPSHOT_VERSION;
  keyword: unknown;
  files: Array<[string, number]>;
  vectors: Array<[string, Float32Array]>;
  dimensions: number;
}

const docId = (fileId: string, index: number) => `${fileId}#${index}`;
function parseId(id: string): { fileId: string; index: number } {
  const at = id.lastIndexOf('#');
  return { fileId: id.slice(0, at), index: Number(id.slice(at + 1)) };
}

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

class MiniSearchIndex implements StoreIndex {
  readonly #keyword: MiniSearch<Doc>;
  readonly #files: Map<string, number>;
  /** Per file: its chunks' vectors end to end (`count × dimensions`). */
  readonly #vectors: Map<string, Float32Array>;
  /** Files being added (minisearch adds in slices, yielding between them): not searched until whole. */
  readonly #adding = new Set<string>();
  #dimensions: number;

  constructor(keyword: MiniSearch<Doc>, files: Map<string, number>, vectors: Map<string, Float32Array>, dimensions: number) {
    this.#keyword = keyword;
    this.#files = files;
    this.#vectors = vectors;
    this.#dimensions = dimensions;
  }

  files(): ReadonlyMap<string, number> {
    return this.#files;
  }

  async add(fileId: string, chunks: readonly IndexedChunk[]): Promise<void> {
    this.remove(fileId);
    this.#adding.add(fileId);
    try {
      await this.#keyword.addAllAsync(
        chunks.map((c) => ({ id: docId(fileId, c.index), text: c.text })),
        { chunkSize: 100 },
      );
    } finally {
      this.#adding.delete(fileId);
    }
    const withVectors = chunks.filter((c) => c.vector !== null);
    if (withVectors.length === chunks.length && chunks.length > 0) {
      const dimensions = chunks[0]!.vector!.length;
      if (this.#dimensions === 0) this.#dimensions = dimensions;
      if (dimensions !== this.#dimensions) throw new Error(`Vectors of ${dimensions} dimensions cannot join an index of ${this.#dimensions}.`);
      const all = new Float32Array(chunks.length * dimensions);
      chunks.forEach((c, i) => all.set(c.vector!, i * dimensions));
      this.#vectors.set(fileId, all);
    }
    this.#files.set(fileId, chunks.length);
  }

  remove(fileId: string): void {
    const count = this.#files.get(fileId);
    if (count === undefined) return;
    for (let i = 0; i < count; i++) {
      const id = docId(fileId, i);
      if (this.#keyword.has(id)) this.#keyword.discard(id);
    }
    this.#files.delete(fileId);
    this.#vectors.delete(fileId);
  }

  keyword(query: string, limit: number, allow: (fileId: string) => boolean): KeywordMatch {
    const terms = new Set(tokenize(query).map(processTerm).filter(Boolean)).size;
    if (terms === 0) return { hits: [], terms: 0 };
    const results = this.#keyword.search(query, { combineWith: 'OR', prefix: false, fuzzy: false, filter: (r) => this.#searchable(parseId(String(r.id)).fileId, allow) });
    return { hits: results.slice(0, limit).map((r) => ({ ...parseId(String(r.id)), score: r.score })), terms };
  }

  nearest(vector: Float32Array, limit: number, allow: (fileId: string) => boolean): ChunkHit[] {
    const dims = this.#dimensions;
    if (dims === 0 || vector.length !== dims) return [];
    // The best `limit` so far, kept sorted best first (limit is small: tens).
    const best: ChunkHit[] = [];
    for (const [fileId, all] of this.#vectors) {
      if (!this.#searchable(fileId, allow)) continue;
      for (let row = 0, offset = 0; offset < all.length; row++, offset += dims) {
        let dot = 0;
        for (let d = 0; d < dims; d++) dot += all[offset + d]! * vector[d]!;
        if (best.length === limit && dot <= best[best.length - 1]!.score) continue;
        let at = best.length;
        while (at > 0 && best[at - 1]!.score < dot) at--;
        best.splice(at, 0, { fileId, index: row, score: dot });
        if (best.length > limit) best.pop();
      }
    }
    return best;
  }

  #searchable(fileId: string, allow: (fileId: string) => boolean): boolean {
    return this.#files.has(fileId) && !this.#adding.has(fileId) && allow(fileId);
  }

  snapshot(): Snapshot {
    return {
      version: SNAPSHOT_VERSION,
      keyword: this.#keyword.toJSON(),
      files: [...this.#files],
      vectors: [...this.#vectors],
      dimensions: this.#dimensions,
    };
  }
}

function isSnapshot(value: unknown): value is Snapshot {
  const s = value as Partial<Snapshot> | null;
  return typeof s === 'object' && s !== null && s.version === SNAPSHOT_VERSION && Array.isArray(s.files) && Array.isArray(s.vectors) && typeof s.dimensions === 'number';
}

export const minisearchIndexes: SearchIndexes = {
  create: async () => new MiniSearchIndex(new MiniSearch<Doc>(OPTIONS), new Map(), new Map(), 0),
  async restore(snapshot: unknown): Promise<StoreIndex | null> {
    if (!isSnapshot(snapshot)) return null;
    try {
      const keyword = MiniSearch.loadJS<Doc>(snapshot.keyword as Parameters<typeof MiniSearch.loadJS>[0], OPTIONS);
      return new MiniSearchIndex(keyword, new Map(snapshot.files), new Map(snapshot.vectors), snapshot.dimensions);
    } catch {
      return null;
    }
  },
};
