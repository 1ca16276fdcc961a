/**
 * `web_search` (and its dated and preview names) as a builtin tool: the model sees three
 * functions — `search`, `open_page`, `find_in_page` — and each call is a `web_search_call`
 * with that action, streamed as `output_item.added` → `web_search_call.in_progress` →
 * `.searching` → `.completed` → `output_item.done`. Pages it showed the model are cited
 * (`url_citation`) in the answer. A failed call ends `failed`, and the model is told why.
 */
import type { z } from 'zod';
import type { ToolSpec } from '../../chat/chat-format';
import type { BuiltinTool, CallContext, ToolCall } from '../../ports/builtin-tool';
import type { SearchSource, WebSearchPort } from '../../ports/tool-ports';
import type { OutputItem, StoredItem, WebSearchCall } from '../../protocol/output-items';
import type { WebSearchCallInput } from '../../protocol/tool-input-items';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { newId } from '../../shared/ids';
import { callConversation, parseArgs, str } from '../call-view';
import { citationsFor, type CitedPage } from './url-citations';

export const SEARCH: ToolSpec = {
  name: 'search',
  description: 'Search the web. Returns titles, URLs and snippets of the top results.',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
};

export const OPEN_PAGE: ToolSpec = {
  name: 'open_page',
  description: 'Open a web page by URL and read its main text.',
  parameters: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
};

export const FIND_IN_PAGE: ToolSpec = {
  name: 'find_in_page',
  description: 'Find the lines of a web page that contain a pattern (case-insensitive).',
  parameters: { type: 'object', properties: { url: { type: 'string' }, pattern: { type: 'string' } }, required: ['url', 'pattern'] },
};

const FUNCTIONS = [SEARCH, OPEN_PAGE, FIND_IN_PAGE];
const isCall = (item: { type: string }): item is WebSearchCall => item.type === 'web_search_call';

/** The call as a later turn shows it: what was asked, and what came of it in a line. */
function callView(item: WebSearchCall) {
  const a = item.action;
  if (a.type === 'search') return callConversation(SEARCH.name, item.id, { query: a.query }, (a.sources ?? []).map((s) => s.url).join('\n') || 'No results.');
  if (a.type === 'open_page') return callConversation(OPEN_PAGE.name, item.id, { url: a.url }, `(page ${a.url} was read)`);
  return callConversation(FIND_IN_PAGE.name, item.id, { url: a.url, pattern: a.pattern }, '(search in page done)');
}

function withoutSources(item: OutputItem): OutputItem {
  if (!isCall(item) || item.action.type !== 'search' || item.action.sources === undefined) return item;
  const { sources: _kept, ...action } = item.action;
  return { ...item, action };
}

async function runAction(item: WebSearchCall, port: WebSearchPort | undefined, signal: AbortSignal): Promise<{ shown: string; pages: CitedPage[] }> {
  if (!port) throw new Error('web search is not available in this runtime');
  const action = item.action;
  if (action.type === 'search') {
    const sources: SearchSource[] = await port.search(action.query, signal);
    action.sources = sources.map((s) => ({ type: 'url' as const, url: s.url }));
    const shown = sources.length ? sources.map((s, i) => `[${i + 1}] ${s.title}\n${s.url}\n${s.snippet}`).join('\n\n') : `No results for "${action.query}".`;
    return { shown, pages: sources.map((s) => ({ url: s.url, title: s.title })) };
  }
  if (action.type === 'open_page') {
    const page = await port.openPage(action.url ?? '', signal);
    return { shown: `${page.title}\n${page.url}\n\n${page.text}`, pages: [{ url: page.url, title: page.title, opened: true }] };
  }
  const found = await port.findInPage(action.url, action.pattern, signal);
  return { shown: found.matches.length ? found.matches.join('\n---\n') : `"${action.pattern}" does not occur in ${found.url}.`, pages: [] };
}

/** `port`: web search as this runtime does it (none: a request with the tool is a 400). */
export function webSearchTool(port: WebSearchPort | undefined): BuiltinTool {
  return {
    name: 'web_search',
    toolTypes: ['web_search', 'web_search_2025_08_26', 'web_search_preview', 'web_search_preview_2025_03_11'],
    itemTypes: ['web_search_call'],
    // A search's sources are kept (the model sees them in later turns) but shown only when
    // asked for, as OpenAI does. `web_search_call.results` names no field of the SDK's item:
    // accepted on create and item reads, it changes nothing.
    includes: {
      'web_search_call.action.sources': withoutSources,
      'web_search_call.results': (item) => item,
    },
    functionNames: () => FUNCTIONS.map((f) => f.name),
    check(entries) {
      if (!port) throw invalidRequest('The web_search tool is not available in this runtime.', `tools[${entries[0]!.index}].type`, Codes.unsupportedTool);
    },
    accept(input): StoredItem {
      const item = input as z.infer<typeof WebSearchCallInput>;
      return { type: 'web_search_call', id: item.id, status: item.status, action: item.action };
    },
    view: (item) => (isCall(item) ? callView(item) : []),
    session() {
      // Pages the calls showed the model, cited in its answer.
      const pages: CitedPage[] = [];
      const run = async (item: WebSearchCall, index: number, name: string, args: Record<string, unknown>, { items, signal }: CallContext) => {
        items.emit({ type: 'response.web_search_call.searching', item_id: item.id, output_index: index });
        let shown: string;
        try {
          const found = await runAction(item, port, signal);
          shown = found.shown;
          pages.push(...found.pages);
          item.status = 'completed';
          items.emit({ type: 'response.web_search_call.completed', item_id: item.id, output_index: index });
        } catch (err) {
          item.status = 'failed';
          shown = `The ${item.action.type.replace(/_/g, ' ')} failed: ${err instanceof Error ? err.message : String(err)}. Answer without it, and say that the web could not be reached if it matters.`;
        }
        items.complete(index, item);
        return callConversation(name, item.id, args, shown);
      };
      return {
        functions: () => FUNCTIONS,
        begin(name, argsJson, context): ToolCall {
          const args = parseArgs(argsJson);
          const action: WebSearchCall['action'] =
            name === SEARCH.name
              ? { type: 'search', query: str(args.query) }
              : name === OPEN_PAGE.name
                ? { type: 'open_page', url: str(args.url) }
                : { type: 'find_in_page', url: str(args.url), pattern: str(args.pattern) };
          const item: WebSearchCall = { type: 'web_search_call', id: newId('ws'), status: 'in_progress', action };
          const index = context.items.begin(item);
          context.items.emit({ type: 'response.web_search_call.in_progress', item_id: item.id, output_index: index });
          return { index, run: () => run(item, index, name, args, context) };
        },
        annotate: (text) => citationsFor(text, pages),
      };
    },
  };
}
