/**
 * `file_search` calls as output items and events, in OpenAI's order: `output_item.added`
 * (`file_search_call`) → `file_search_call.in_progress` → `.searching` → `.completed` →
 * `output_item.done`. The model asked with `{"queries": [...]}`; it is shown the passages
 * found, numbered as this response's sources (`[1]`, `[2]`, … — numbers go on across calls,
 * and a passage shown before keeps its number), whole chunks only, as many as fit in what is
 * left of its context window. A failed search fails its item, and the model is told why.
 */
import type { ConversationItem } from '../../chat/chat-format';
import type { FileSearchTool } from '../../protocol/create-request';
import type { FileSearchCall, FileSearchResult } from '../../protocol/output-items';
import { describeError } from '../../shared/api-error';
import { newId } from '../../shared/ids';
import { estimateTokens } from '../files/chunk-text';
import type { FilesState } from '../files/files-state';
import { DEFAULT_HYBRID, searchStores, type FoundChunk } from '../files/search';
import { callConversation } from '../model-view/builtin-call-view';
import type { CitedFile } from './citation-markers';
import type { OutputBuilder } from './output-builder';

export interface PendingFileSearchCall {
  kind: 'file_search';
  index: number;
  item: FileSearchCall;
}

/** Queries a call may make, and the longest one kept. */
const MAX_QUERIES = 5;
const MAX_QUERY_CHARS = 500;
/** Passages a search returns when the tool does not say (OpenAI's default for the Responses tool). */
const DEFAULT_MAX_RESULTS = 10;

/** The response's numbered sources: each passage shown gets the next number, once. */
export class SourceList {
  readonly #byKey = new Map<string, number>();
  readonly #files: CitedFile[] = [];

  /** The number passage `key` has, or would get next. */
  peek(key: string): { n: number; fresh: boolean } {
    const known = this.#byKey.get(key);
    return known !== undefined ? { n: known, fresh: false } : { n: this.#files.length + 1, fresh: true };
  }

  /** Gives passage `key` its number (if it has none). */
  number(key: string, file: CitedFile): number {
    const known = this.#byKey.get(key);
    if (known !== undefined) return known;
    this.#files.push({ file_id: file.file_id, filename: file.filename });
    this.#byKey.set(key, this.#files.length);
    return this.#files.length;
  }

  /** The file of source `n` (1-based). */
  file(n: number): CitedFile | undefined {
    return Number.isInteger(n) && n >= 1 ? this.#files[n - 1] : undefined;
  }

  get size(): number {
    return this.#files.length;
  }
}

function queriesOf(argsJson: string): string[] {
  let args: unknown;
  try {
    args = JSON.parse(argsJson);
  } catch {
    return [];
  }
  const value = typeof args === 'object' && args !== null ? ((args as Record<string, unknown>).queries ?? (args as Record<string, unknown>).query) : undefined;
  const list = Array.isArray(value) ? value : [value];
  return list
    .filter((q): q is string => typeof q === 'string' && q.trim() !== '')
    .slice(0, MAX_QUERIES)
    .map((q) => q.trim().slice(0, MAX_QUERY_CHARS));
}

export function beginFileSearchCall(builder: OutputBuilder, argsJson: string): PendingFileSearchCall {
  const item: FileSearchCall = { type: 'file_search_call', id: newId('fs'), queries: queriesOf(argsJson), status: 'in_progress', results: null };
  const index = builder.beginBuiltinCall(item);
  builder.emit({ type: 'response.file_search_call.in_progress', item_id: item.id, output_index: index });
  return { kind: 'file_search', index, item };
}

export interface FileSearchContext {
  files: FilesState | undefined;
  tool: FileSearchTool | null;
  sources: SourceList;
  /** Tokens of context the passages may take (whole chunks, best first, until the next would not fit). */
  budgetTokens: number;
  signal: AbortSignal;
}

/** Runs the search and finishes the item; never throws for a failed search (the model is told instead). */
export async function runFileSearchCall(call: PendingFileSearchCall, context: FileSearchContext, builder: OutputBuilder): Promise<ConversationItem[]> {
  const { item, index } = call;
  item.status = 'searching';
  builder.updateBuiltinCall(index, item);
  builder.emit({ type: 'response.file_search_call.searching', item_id: item.id, output_index: index });
  let shown: string;
  try {
    const found = await search(context, item.queries);
    const packed = pack(found, context);
    item.results = packed.results;
    shown = packed.shown;
    item.status = 'completed';
    builder.emit({ type: 'response.file_search_call.completed', item_id: item.id, output_index: index });
  } catch (err) {
    if (context.signal.aborted) throw err;
    item.status = 'failed';
    item.results = [];
    shown = `The file search failed: ${describeError(err)}. Answer without it, and say that the files could not be searched if it matters.`;
  }
  builder.completeBuiltinCall(index, item);
  return callConversation('file_search', item.id, { queries: item.queries }, shown);
}

async function search(context: FileSearchContext, queries: string[]): Promise<FoundChunk[]> {
  const { files, tool } = context;
  if (!files || !tool) throw new Error('file search is not available in this response');
  if (queries.length === 0) throw new Error('the call gave no queries (call it with {"queries": ["…"]})');
  const stores = [];
  for (const id of tool.vector_store_ids) {
    const store = await files.store.getVectorStore(id);
    if (store) stores.push(store);
  }
  return searchStores(files, stores, queries, {
    maxResults: tool.max_num_results ?? DEFAULT_MAX_RESULTS,
    filters: tool.filters ?? null,
    scoreThreshold: tool.ranking_options?.score_threshold ?? 0,
    hybrid: tool.ranking_options?.hybrid_search ?? DEFAULT_HYBRID,
    signal: context.signal,
  });
}

const HEADER = "Passages from the user's files, numbered as sources. Answer from them and cite each source you use by its number in brackets, like [1].";

/** The passages the model is shown: whole chunks, best first, numbered, within the budget. */
function pack(found: readonly FoundChunk[], context: FileSearchContext): { shown: string; results: FileSearchResult[] } {
  if (found.length === 0) return { shown: "No passages in the user's files match the queries.", results: [] };
  const blocks: string[] = [];
  const results: FileSearchResult[] = [];
  let used = estimateTokens(HEADER) + 8;
  for (const hit of found) {
    const text = hit.content.map((c) => c.text).join('\n');
    const key = `${hit.vectorStoreId}/${hit.file_id}#${hit.chunkIndex}`;
    const { n, fresh } = context.sources.peek(key);
    const block = fresh ? `[${n}] ${hit.filename}\n${text}` : `[${n}] ${hit.filename} (shown above)`;
    const cost = estimateTokens(block) + 4;
    // Whole chunks only: the first that does not fit ends the list (a smaller later one would jump the ranking).
    if (used + cost > context.budgetTokens) break;
    context.sources.number(key, hit);
    used += cost;
    blocks.push(block);
    results.push({ file_id: hit.file_id, filename: hit.filename, score: hit.score, text, attributes: hit.attributes });
  }
  if (blocks.length === 0)
    return { shown: `Passages were found in ${found[0]!.filename}, but none fits in the context window left; answer without them, and say the passages were too long.`, results: [] };
  return { shown: `${HEADER}\n\n${blocks.join('\n\n')}`, results };
}
