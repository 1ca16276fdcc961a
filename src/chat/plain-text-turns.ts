/**
 * A conversation as plain system / user / assistant turns, for families trained without tool
 * calling (SmolLM2, Phi-3.5, Gemma 2). Their templates cannot show a function call or its
 * output, yet a conversation begun with another model may hold them, and dropping them would
 * hide what happened. So they are written in the most widespread text convention, Hermes':
 * a call as `<tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>` inside the assistant
 * turn (after its text, one per line), and the outputs that follow as one user turn of
 * `<tool_response>\n…\n</tool_response>` blocks. Reasoning items are not shown.
 */
import type { ConversationItem, RenderInput } from './chat-format';
import type { ChatMessage } from './chat-message';
import { pythonJsonDumps } from './python-json';

/** `instructions` (when not empty) become the first system turn; developer messages are system turns. */
export function toPlainTextTurns(input: Pick<RenderInput, 'instructions' | 'items'>): ChatMessage[] {
  const turns: ChatMessage[] = input.instructions ? [{ role: 'system', content: input.instructions }] : [];
  let previous: ConversationItem | null = null;
  for (const item of input.items) {
    const piece = pieceOf(item);
    if (!piece) continue;
    const last = turns[turns.length - 1];
    if (last && previous && joins(previous, item)) {
      last.content += `\n${piece.content}`;
      if (piece.images) last.images = [...(last.images ?? []), ...piece.images];
    } else turns.push(piece);
    previous = item;
  }
  return turns;
}

function pieceOf(item: ConversationItem): ChatMessage | null {
  switch (item.type) {
    case 'message':
      return { role: item.role === 'user' || item.role === 'assistant' ? item.role : 'system', content: item.text, ...(item.images?.length ? { images: item.images } : {}) };
    case 'function_call':
      return { role: 'assistant', content: `<tool_call>\n{"name": "${item.name}", "arguments": ${argumentsText(item.arguments)}}\n</tool_call>` };
    case 'function_call_output':
      return { role: 'user', content: `<tool_response>\n${item.output}\n</tool_response>`, ...(item.images?.length ? { images: item.images } : {}) };
    case 'reasoning':
      return null;
  }
}

/** Calls join the assistant turn before them; outputs join the outputs before them. */
function joins(previous: ConversationItem, item: ConversationItem): boolean {
  if (item.type === 'function_call') {
    return previous.type === 'function_call' || (previous.type === 'message' && previous.role === 'assistant');
  }
  return item.type === 'function_call_output' && previous.type === 'function_call_output';
}

function argumentsText(args: string): string {
  try {
    return pythonJsonDumps(JSON.parse(args));
  } catch {
    // Not JSON (a model's malformed call replayed as history): show it unchanged.
    return args;
  }
}
