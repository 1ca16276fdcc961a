/**
 * Keeping web-llm's KV cache across turns although our chat formats re-render history.
 *
 * web-llm reuses its KV cache only when a request's `messages[:-1]` repeat, string for
 * string, the conversation it holds: the earlier messages plus its own last reply exactly as
 * it generated it (`getMessage()`). Our history is rebuilt from Responses items, the way the
 * model family's chat template shows it: Qwen3 drops the `<think>` block of earlier turns,
 * the empty think block web-llm inserts when thinking is off is not an item at all, tool
 * calls are re-serialized, whitespace between items is trimmed. So the re-rendered reply
 * never matches, and every turn was prefilled from scratch.
 *
 * The fix, inside the adapter: when the new request is "what web-llm holds + one new
 * message", except that the assistant turn is our rendering of web-llm's reply, send
 * web-llm's raw reply in its place. Whether the rendering is *of that reply* is checked with
 * the family's own parser — both texts must say the same (text, tool calls, and reasoning
 * unless the rendering dropped it). An assistant turn that says something else (a client
 * that edited the history, or continued another branch of the conversation) is sent as
 * rendered, and web-llm starts over as before.
 *
 * What the model sees then differs from the template in one way: its earlier reasoning (and
 * the empty think block) stays in context, exactly as it wrote it, instead of being dropped.
 * That is how web-llm's own multi-turn chat works, costs context (the adapter falls back to
 * the template's shorter history when the reused one would not leave room), and is what the
 * model actually attended to when it wrote the reply.
 */
import type { ChatFormat, ParseEvent } from '../../chat/chat-format';

export interface PlainMessage {
  role: string;
  content: string;
}

/** What one side of the comparison says, read by the family's parser. */
interface ReplyMeaning {
  text: string;
  reasoning: string;
  calls: string[];
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

function readReply(format: ChatFormat, toolNames: ReadonlySet<string>, text: string): ReplyMeaning {
  const parser = format.createParser({ toolNames });
  const events: ParseEvent[] = [...parser.push(text), ...parser.end()];
  let out = '';
  let reasoning = '';
  const calls: string[] = [];
  for (const event of events) {
    if (event.type === 'text') out += event.text;
    else if (event.type === 'reasoning') reasoning += event.text;
    else if (event.type === 'tool_call') calls.push(`${event.name}\u0000${event.arguments}`);
  }
  return { text: squash(out), reasoning: squash(reasoning), calls };
}

/**
 * Every `"name": "…"` in `texts`: the names the tool calls written there can have, in the
 * JSON forms our families use (Hermes `{"name": …, "arguments": …}`, Llama `{"name": …,
 * "parameters": …}`). Both sides of a `sameReply` comparison are read with these names as
 * tools, so a call is a call on both or on neither; a name that is no call changes nothing.
 */
export function callNamesIn(texts: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(/"name"\s*:\s*("(?:[^"\\]|\\.)*")/g)) {
      try {
        names.add(JSON.parse(match[1]!) as string);
      } catch {
        // Not a JSON string after all: no name.
      }
    }
  }
  return names;
}

/**
 * Whether `rendered` (an assistant turn as the chat format wrote it) shows the same reply as
 * `raw` (what the model generated): same text and tool calls, up to whitespace; reasoning
 * either dropped by the rendering or the same.
 */
export function sameReply(format: ChatFormat, toolNames: ReadonlySet<string>, rendered: string, raw: string): boolean {
  if (rendered === raw) return true;
  const a = readReply(format, toolNames, rendered);
  const b = readReply(format, toolNames, raw);
  return (
    a.text === b.text &&
    a.calls.length === b.calls.length &&
    a.calls.every((call, i) => call === b.calls[i]) &&
    (a.reasoning === '' || a.reasoning === b.reasoning)
  );
}

/**
 * `messages` with the assistant turn that re-renders web-llm's last reply replaced by the raw
 * reply, when the request continues exactly the conversation web-llm holds (`held`: its
 * earlier messages, then its reply); otherwise `messages` unchanged. Never mutates.
 */
export function withHeldReply<M extends { role: string; content?: unknown }>(
  held: readonly PlainMessage[] | null,
  messages: readonly M[],
  isSameReply: (rendered: string, raw: string) => boolean,
): { messages: M[]; substituted: boolean } {
  const unchanged = { messages: [...messages], substituted: false };
  const reply = held?.at(-1);
  if (!held || !reply || reply.role !== 'assistant' || messages.length !== held.length + 1) return unchanged;
  const at = held.length - 1;
  for (let i = 0; i < at; i++) {
    const m = messages[i]!;
    if (m.role !== held[i]!.role || m.content !== held[i]!.content) return unchanged;
  }
  const turn = messages[at]!;
  if (turn.role !== 'assistant' || typeof turn.content !== 'string' || turn.content === reply.content) return unchanged;
  if (!isSameReply(turn.content, reply.content)) return unchanged;
  const replaced = [...messages];
  replaced[at] = { ...turn, content: reply.content };
  return { messages: replaced, substituted: true };
}
