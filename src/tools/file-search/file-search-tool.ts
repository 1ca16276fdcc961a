/**
 * `file_search` calls as output items and events, in OpenAI's order: `output_item.added`
 * (`file_search_call`) → `file_search_call.in_progress` → `.searching` → `.completed` →
 * `output_item.done`. The model asked with `{"queries": [...]}`; it is shown the passages
 * found, numbered as this response's sources (`[1]`, `[2]`, … — numbers go on across calls,
 * and a passage shown before keeps its number), whole chunks only, as many as fit in what is
 * left of its context window. A failed search fails its item, and the model is told why.
 */
import type { z } from 'zod';
import type { ConversationItem, ToolSpec } from '../../chat/chat-format';
import type { BuiltinTool, CallContext, CitedSource, ToolCall, ToolHost } from '../../ports/builtin-tool';
import type { FoundPassage } from '../../ports/vector-search';
import type { FileSearchTool } from '../../protocol/create-request';
import type { FileSearchCall, FileSearchResult, StoredItem } from '../../protocol/output-items';
import type { FileSearchCallInput } from '../../protocol/tool-input-items';
import { describeError, invalidRequest, notFound } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { estimateTokens } from '../../shared/estimate-tokens';
import { newId } from '../../shared/ids';
import { callConversation } from '../call-view';

/**
 * `file_search`: the model asks with a few queries and is shown the passages found, numbered
 * as sources; it cites one by writing its number in brackets, which becomes a `file_citation`.
 */
export const FILE_SEARCH: ToolSpec = {
  name: 'file_search',
  description:
    "Search the user's files for passages that answer a question. Give one or more short search queries. The passages come back numbered as sources [1], [2], …: answer from them, and cite the source of each fact by writing its number in brackets, like [1].",
  parameters: {
    type: 'object',
    properties: { queries: { type: 'array', items: { type: 'string' }, description: 'Search queries: a few keywords or a short question each.' } },
    required: ['queries'],
  },
};

/** Queries a call may make, and the longest one kept. */
const MAX_QUERIES = 5;
const MAX_QUERY_CHARS = 500;
/** Passages a search returns when the tool does not say (OpenAI's default for the Responses tool). */
const DEFAULT_MAX_RESULTS = 10;

/** The response's numbered sources: each passage shown gets the next number, once. */
class SourceList {
  readonly #byKey = new Map<string, number>();
  readonly #files: CitedSource[] = [];

  /** The number passage `key` has, or would get next. */
  peek(key: string): { n: number; fresh: boolean } {
    const known = this.#byKey.get(key);
    return known !== undefined ? { n: known, fresh: false } : { n: this.#files.length + 1, fresh: true };
  }

  /** Gives passage `key` its number (if it has none). */
  number(key: string, file: CitedSource): number {
    const known = this.#byKey.get(key);
    if (known !== undefined) return known;
    this.#files.push({ file_id: file.file_id, filename: file.filename });
    this.#byKey.set(key, this.#files.length);
    return this.#files.length;
  }

  /** The file of source `n` (1-based). */
  get(n: number): CitedSource | undefined {
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

interface SearchContext {
  host: ToolHost;
  tool: FileSearchTool | undefined;
  sources: SourceList;
  /** Tokens of context the passages may take (whole chunks, best first, until the next would not fit). */
  budgetTokens: number;
  signal: AbortSignal;
}

/** Runs the search and finishes the item; never throws for a failed search (the model is told instead). */
async function runSearch(item: FileSearchCall, index: number, context: CallContext, tool: FileSearchTool | undefined, host: ToolHost, sources: SourceList): Promise<ConversationItem[]> {
  const { items, signal } = context;
  item.status = 'searching';
  items.update(index, item);
  items.emit({ type: 'response.file_search_call.searching', item_id: item.id, output_index: index });
  let shown: string;
  try {
    const found = await search(host, tool, item.queries, signal);
    const packed = pack(found, { host, tool, sources, budgetTokens: await context.contextLeft(), signal });
    item.results = packed.results;
    shown = packed.shown;
    item.status = 'completed';
    items.emit({ type: 'response.file_search_call.completed', item_id: item.id, output_index: index });
  } catch (err) {
    if (signal.aborted) throw err;
    item.status = 'failed';
    item.results = [];
    shown = `The file search failed: ${describeError(err)}. Answer without it, and say that the files could not be searched if it matters.`;
  }
  items.complete(index, item);
  return callConversation(FILE_SEARCH.name, item.id, { queries: item.queries }, shown);
}

async function search(host: ToolHost, tool: FileSearchTool | undefined, queries: string[], signal: AbortSignal): Promise<FoundPassage[]> {
  if (!host.vectorSearch || !tool) throw new Error('file search is not available in this response');
  if (queries.length === 0) throw new Error('the call gave no queries (call it with {"queries": ["…"]})');
  return host.vectorSearch.search(tool.vector_store_ids, queries, {
    maxResults: tool.max_num_results ?? DEFAULT_MAX_RESULTS,
    filters: tool.filters ?? null,
    scoreThreshold: tool.ranking_options?.score_threshold ?? 0,
    hybrid: tool.ranking_options?.hybrid_search ?? null,
    signal,
  });
}

const HEADER = "Passages from the user's files, numbered as sources. Answer from them and cite each source you use by its number in brackets, like [1].";

/** The passages the model is shown: whole chunks, best first, numbered, within the budget. */
function pack(found: readonly FoundPassage[], context: SearchContext): { shown: string; results: FileSearchResult[] } {
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

/** A past file search as a later turn sees it: which files it found, not their text again (those passages were for that turn's answer). */
export function fileSearchRecap(item: FileSearchCall): string {
  if (item.status === 'failed') return 'The file search failed.';
  const files = [...new Set((item.results ?? []).map((r) => r.filename))];
  return files.length ? `(passages from ${files.join(', ')} were shown)` : '(no passages were found)';
}

const isCall = (item: { type: string }): item is FileSearchCall => item.type === 'file_search_call';
const isFileSearch = (tool: { type: string }): tool is FileSearchTool => tool.type === 'file_search';

/** File search over the runtime's vector stores (`host.vectorSearch`; none: a request with the tool is a 400). */
export function fileSearchTool(): BuiltinTool {
  return {
    name: 'file_search',
    toolTypes: ['file_search'],
    itemTypes: ['file_search_call'],
    includes: { 'file_search_call.results': (item) => (isCall(item) ? { ...item, results: null } : item) },
    functionNames: () => [FILE_SEARCH.name],
    async check(entries, host) {
      const [first, second] = entries;
      if (!host.vectorSearch) throw invalidRequest('The file_search tool is not available in this runtime (it has no file store).', `tools[${first!.index}].type`, Codes.unsupportedTool);
      if (second) throw invalidRequest('Only one file_search tool may be given; list every vector store in its vector_store_ids.', `tools[${second.index}]`, Codes.invalidValue);
      // Every vector store it names must exist: a 404 naming the first that does not.
      const tool = first!.tool;
      if (!isFileSearch(tool)) return;
      for (const [j, id] of tool.vector_store_ids.entries())
        if (!(await host.vectorSearch.hasStore(id))) throw notFound(`Vector store with id '${id}' not found.`, `tools[${first!.index}].vector_store_ids[${j}]`, Codes.vectorStoreNotFound);
    },
    accept(input): StoredItem {
      const item = input as z.infer<typeof FileSearchCallInput>;
      return {
        type: 'file_search_call',
        id: item.id,
        queries: item.queries,
        status: item.status,
        results: item.results?.map((r) => ({ file_id: r.file_id ?? '', filename: r.filename ?? '', score: r.score ?? 0, text: r.text ?? '', attributes: r.attributes ?? null })) ?? null,
      };
    },
    view: (item) => (isCall(item) ? callConversation(FILE_SEARCH.name, item.id, { queries: item.queries }, fileSearchRecap(item)) : []),
    session(entries, _turn, host) {
      const tool = entries.find(isFileSearch);
      // Passages the searches showed the model, numbered: a `[n]` in its answer cites source n's file.
      const sources = new SourceList();
      return {
        functions: () => [FILE_SEARCH],
        begin(_name, argsJson, context): ToolCall {
          const item: FileSearchCall = { type: 'file_search_call', id: newId('fs'), queries: queriesOf(argsJson), status: 'in_progress', results: null };
          const index = context.items.begin(item);
          context.items.emit({ type: 'response.file_search_call.in_progress', item_id: item.id, output_index: index });
          return { index, run: () => runSearch(item, index, context, tool, host, sources) };
        },
        sources: () => sources,
      };
    },
  };
}
