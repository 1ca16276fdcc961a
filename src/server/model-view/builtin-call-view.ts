/**
 * How a builtin call looks to the model: the function call it made (`python`, `search`,
 * `open_page`, `find_in_page`; see builtin-functions.ts) and the output it was shown. The
 * same rendering serves the round that made the call and every later turn that replays it.
 */
import type { ConversationItem } from '../../chat/chat-format';
import type { CodeInterpreterCall, FileSearchCall, WebSearchCall } from '../../protocol/output-items';

export function codeOutputForModel(logs: string, images: number, error: string | null): string {
  const parts = [logs || (error ? '' : '(no output)')];
  if (images) parts.push(`[${images} image${images > 1 ? 's' : ''} shown to the user]`);
  if (error) parts.push(`Error: ${error}`);
  return parts.filter(Boolean).join('\n');
}

export function callConversation(name: string, callId: string, args: Record<string, unknown>, shown: string): ConversationItem[] {
  return [
    { type: 'function_call', call_id: callId, name, arguments: JSON.stringify(args) },
    { type: 'function_call_output', call_id: callId, output: shown },
  ];
}

/** A stored builtin call, replayed in a later turn as the call and what the model was shown. */
export function builtinCallAsConversation(item: CodeInterpreterCall | WebSearchCall | FileSearchCall): ConversationItem[] {
  // What a file search showed the model is not shown again: its passages were for that turn's answer.
  if (item.type === 'file_search_call') return callConversation('file_search', item.id, { queries: item.queries }, fileSearchRecap(item));
  if (item.type === 'code_interpreter_call') {
    const logs = (item.outputs ?? []).flatMap((o) => (o.type === 'logs' ? [o.logs] : [])).join('');
    const images = (item.outputs ?? []).filter((o) => o.type === 'image').length;
    const error = item.status === 'failed' ? 'the call failed' : null;
    return callConversation('python', item.id, { code: item.code ?? '' }, codeOutputForModel(logs, images, error));
  }
  const a = item.action;
  if (a.type === 'search')
    return callConversation('search', item.id, { query: a.query }, (a.sources ?? []).map((s) => s.url).join('\n') || 'No results.');
  if (a.type === 'open_page') return callConversation('open_page', item.id, { url: a.url }, `(page ${a.url} was read)`);
  return callConversation('find_in_page', item.id, { url: a.url, pattern: a.pattern }, '(search in page done)');
}

/** A past file search as a later turn sees it: which files it found, not their text again. */
export function fileSearchRecap(item: FileSearchCall): string {
  if (item.status === 'failed') return 'The file search failed.';
  const files = [...new Set((item.results ?? []).map((r) => r.filename))];
  return files.length ? `(passages from ${files.join(', ')} were shown)` : '(no passages were found)';
}
