/**
 * Builtin tool calls as output items and events, in OpenAI's order:
 * code interpreter: `output_item.added` → `code_interpreter_call.in_progress` →
 * `code_interpreter_call_code.delta/.done` → `.interpreting` → `.completed` → `output_item.done`;
 * web search: `output_item.added` → `web_search_call.in_progress` → `.searching` →
 * `.completed` → `output_item.done`. A failed call ends with its item `failed` and the
 * model is told why, so it can answer anyway.
 *
 * A call keeps its own copy of its item and changes that; the output builder owns the
 * response's items and is told each change (`updateBuiltinCall`, `completeBuiltinCall`).
 */
import type { ConversationItem } from '../../chat/chat-format';
import type { CodeInterpreterCall, WebSearchCall } from '../../protocol/output-items';
import { newId } from '../../shared/ids';
import type { OutputBuilder } from './output-builder';
import type { SearchSource, ToolPorts } from '../../ports/tool-ports';
import { callConversation, codeOutputForModel } from '../model-view/builtin-call-view';

export interface PendingBuiltinCall {
  name: string;
  args: Record<string, unknown>;
  index: number;
  /** This call's copy of its item. */
  item: CodeInterpreterCall | WebSearchCall;
}

/** What a finished call gives the conversation and the answer's citations. */
export interface BuiltinResult {
  conversation: ConversationItem[];
  /** Pages the model saw (search results and opened pages), for `url_citation`s. */
  pages: Array<{ url: string; title: string; opened?: boolean }>;
}

function parseArgs(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Adds the call's item as soon as the model has written it (before it runs). */
export function beginBuiltinCall(builder: OutputBuilder, name: string, argsJson: string, containerId: string): PendingBuiltinCall {
  const args = parseArgs(argsJson);
  if (name === 'python') {
    const code = str(args.code);
    const item: CodeInterpreterCall = { type: 'code_interpreter_call', id: newId('ci'), status: 'in_progress', code: '', container_id: containerId, outputs: null };
    const index = builder.beginBuiltinCall(item);
    builder.emit({ type: 'response.code_interpreter_call.in_progress', item_id: item.id, output_index: index });
    builder.emit({ type: 'response.code_interpreter_call_code.delta', item_id: item.id, output_index: index, delta: code });
    builder.emit({ type: 'response.code_interpreter_call_code.done', item_id: item.id, output_index: index, code });
    item.code = code;
    builder.updateBuiltinCall(index, item);
    return { name, args, index, item };
  }
  const action: WebSearchCall['action'] =
    name === 'search'
      ? { type: 'search', query: str(args.query) }
      : name === 'open_page'
        ? { type: 'open_page', url: str(args.url) }
        : { type: 'find_in_page', url: str(args.url), pattern: str(args.pattern) };
  const item: WebSearchCall = { type: 'web_search_call', id: newId('ws'), status: 'in_progress', action };
  const index = builder.beginBuiltinCall(item);
  builder.emit({ type: 'response.web_search_call.in_progress', item_id: item.id, output_index: index });
  return { name, args, index, item };
}

/** Runs the call and finishes its item; never throws for a tool failure (the model is told instead). */
export async function runBuiltinCall(call: PendingBuiltinCall, ports: ToolPorts, builder: OutputBuilder, signal: AbortSignal): Promise<BuiltinResult> {
  const { item, index } = call;
  let shown: string;
  let pages: BuiltinResult['pages'] = [];
  if (item.type === 'code_interpreter_call') {
    item.status = 'interpreting';
    builder.updateBuiltinCall(index, item);
    builder.emit({ type: 'response.code_interpreter_call.interpreting', item_id: item.id, output_index: index });
    const port = ports.codeInterpreter;
    const result = port
      ? await port.run(item.code ?? '', { containerId: item.container_id, signal })
      : { logs: '', images: [], error: 'The code interpreter is not available in this runtime.' };
    item.outputs = [...(result.logs ? [{ type: 'logs' as const, logs: result.logs }] : []), ...result.images.map((url) => ({ type: 'image' as const, url }))];
    item.status = result.error ? 'failed' : 'completed';
    if (!result.error) builder.emit({ type: 'response.code_interpreter_call.completed', item_id: item.id, output_index: index });
    shown = codeOutputForModel(result.logs, result.images.length, result.error);
  } else {
    builder.emit({ type: 'response.web_search_call.searching', item_id: item.id, output_index: index });
    try {
      const found = await runWebAction(item, ports, signal);
      shown = found.shown;
      pages = found.pages;
      item.status = 'completed';
      builder.emit({ type: 'response.web_search_call.completed', item_id: item.id, output_index: index });
    } catch (err) {
      item.status = 'failed';
      shown = `The ${item.action.type.replace(/_/g, ' ')} failed: ${err instanceof Error ? err.message : String(err)}. Answer without it, and say that the web could not be reached if it matters.`;
    }
  }
  builder.completeBuiltinCall(index, item);
  return { conversation: callConversation(call.name, item.id, call.args, shown), pages };
}

async function runWebAction(item: WebSearchCall, ports: ToolPorts, signal: AbortSignal): Promise<{ shown: string; pages: BuiltinResult['pages'] }> {
  const port = ports.webSearch;
  if (!port) throw new Error('web search is not available in this runtime');
  const action = item.action;
  if (action.type === 'search') {
    const sources: SearchSource[] = await port.search(action.query, signal);
    action.sources = sources.map((s) => ({ type: 'url' as const, url: s.url }));
    const shown = sources.length
      ? sources.map((s, i) => `[${i + 1}] ${s.title}\n${s.url}\n${s.snippet}`).join('\n\n')
      : `No results for "${action.query}".`;
    return { shown, pages: sources.map((s) => ({ url: s.url, title: s.title })) };
  }
  if (action.type === 'open_page') {
    const page = await port.openPage(action.url ?? '', signal);
    return { shown: `${page.title}\n${page.url}\n\n${page.text}`, pages: [{ url: page.url, title: page.title, opened: true }] };
  }
  const found = await port.findInPage(action.url, action.pattern, signal);
  const shown = found.matches.length ? found.matches.join('\n---\n') : `"${action.pattern}" does not occur in ${found.url}.`;
  return { shown, pages: [] };
}
