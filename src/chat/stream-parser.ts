/**
 * A streaming parser for model output that marks reasoning and tool calls with tags, such as
 * `<think>…</think>` and `<tool_call>…</tool_call>`. Model families differ only in their
 * tags and in how a tool call's body is read, so each family passes a `TagGrammar`.
 *
 * Invariants (tested with the input split at every position):
 * - Events do not depend on how the input is chunked, once adjacent text / reasoning events
 *   are merged.
 * - Text and reasoning are released as soon as they are certain: only a suffix that could
 *   still become a tag (and a dangling UTF-16 high surrogate) is held back. A tool-call block
 *   is held whole until it closes, because it may turn out to be plain text.
 * - Text events + the raw blocks of accepted tool calls, in order, reproduce the input minus
 *   the reasoning blocks, byte for byte. Nothing is trimmed.
 * - Tags are recognized anywhere in text: a `<think>` after an answer is still reasoning
 *   (models do emit it late, or after whitespace). Inside a reasoning block only its closing
 *   tag counts; inside a tool-call block only its closing tag counts.
 *
 * Positions (spans) count UTF-16 code units of the raw stream, like `String.length`.
 */
import type { ParseEvent, ParserOptions, StreamParser } from './chat-format';
import type { ToolCallBody } from './hermes-tool-call';

export interface TagPair {
  open: string;
  close: string;
}

export interface ToolCallGrammar extends TagPair {
  /** Reads the text between the tags; `null` when it is not a well-formed call. */
  parse(body: string): ToolCallBody | null;
}

export interface TagGrammar {
  reasoning?: TagPair;
  toolCall?: ToolCallGrammar;
}

export interface TagStreamParser extends StreamParser {
  /** Ranges `[start, end)` of the raw blocks that became `tool_call` events, tags included. */
  toolCallSpans(): Array<[number, number]>;
}

type Mode = 'text' | 'reasoning' | 'tool_call';
type Span = [number, number];

/**
 * @example
 * const parser = createTagStreamParser(
 *   { reasoning: { open: '<think>', close: '</think>' } },
 *   { toolNames: new Set() },
 * );
 * parser.push('<think>hm</thi'); // [{ type: 'reasoning', text: 'hm' }]
 * parser.push('nk>Hi');          // [{ type: 'reasoning_done' }, { type: 'text', text: 'Hi' }]
 */
export function createTagStreamParser(grammar: TagGrammar, options: ParserOptions): TagStreamParser {
  const { reasoning, toolCall } = grammar;
  const openTags = [reasoning?.open, toolCall?.open].filter((tag): tag is string => !!tag);

  let mode: Mode = options.startInReasoning && reasoning ? 'reasoning' : 'text';
  /** Raw input not yet turned into events; in `tool_call` mode it starts with the open tag. */
  let buffer = '';
  /** Raw offset of `buffer[0]`. */
  let offset = 0;
  let reasoningStart = 0;
  /** In `tool_call` mode, where to resume looking for the close tag (no rescanning). */
  let searchFrom = 0;
  let ended = false;
  const reasoningSpans: Span[] = [];
  const toolCallSpans: Span[] = [];

  /** Appends, merging with a previous event of the same kind so callers get fewer events. */
  function emit(out: ParseEvent[], type: 'text' | 'reasoning', text: string): void {
    if (!text) return;
    const last = out[out.length - 1];
    if (last && last.type === type) out[out.length - 1] = { type, text: last.text + text };
    else out.push({ type, text });
  }

  function consume(length: number): string {
    const taken = buffer.slice(0, length);
    buffer = buffer.slice(length);
    offset += length;
    return taken;
  }

  /** How much of the buffer's end must wait for more input before it can be released. */
  function heldBack(tags: string[], final: boolean): number {
    if (final) return 0;
    let keep = longestTagPrefixSuffix(buffer, tags);
    // Never split a surrogate pair across events: each event stays a well-formed string.
    if (isHighSurrogate(buffer.charCodeAt(buffer.length - keep - 1))) keep += 1;
    return Math.min(keep, buffer.length);
  }

  function closeReasoning(out: ParseEvent[]): void {
    reasoningSpans.push([reasoningStart, offset]);
    out.push({ type: 'reasoning_done' });
    mode = 'text';
  }

  function stepText(out: ParseEvent[], final: boolean): boolean {
    const hit = earliestTag(buffer, openTags);
    if (!hit) {
      emit(out, 'text', consume(buffer.length - heldBack(openTags, final)));
      return false;
    }
    emit(out, 'text', consume(hit.index));
    if (hit.tag === reasoning?.open) {
      reasoningStart = offset;
      consume(hit.tag.length);
      mode = 'reasoning';
    } else {
      searchFrom = hit.tag.length;
      mode = 'tool_call';
    }
    return true;
  }

  function stepReasoning(out: ParseEvent[], final: boolean, close: string): boolean {
    const index = buffer.indexOf(close);
    if (index < 0) {
      emit(out, 'reasoning', consume(buffer.length - heldBack([close], final)));
      if (final) closeReasoning(out);
      return false;
    }
    emit(out, 'reasoning', consume(index));
    consume(close.length);
    closeReasoning(out);
    return true;
  }

  function stepToolCall(out: ParseEvent[], final: boolean, tags: ToolCallGrammar): boolean {
    const index = buffer.indexOf(tags.close, searchFrom);
    if (index < 0) {
      // A close tag may straddle the next chunk: resume just before the possible overlap.
      searchFrom = Math.max(tags.open.length, buffer.length - tags.close.length + 1);
      if (final) {
        emit(out, 'text', consume(buffer.length));
        mode = 'text';
      }
      return false;
    }
    const start = offset;
    const end = index + tags.close.length;
    const call = tags.parse(buffer.slice(tags.open.length, index));
    const raw = consume(end);
    if (call && options.toolNames.has(call.name) && (options.acceptsCall?.(call.name, call.arguments) ?? true)) {
      out.push({ type: 'tool_call', name: call.name, arguments: call.arguments });
      toolCallSpans.push([start, offset]);
    } else {
      emit(out, 'text', raw);
    }
    mode = 'text';
    return true;
  }

  function drain(final: boolean): ParseEvent[] {
    const out: ParseEvent[] = [];
    for (let progressed = true; progressed; ) {
      if (mode === 'reasoning' && reasoning) progressed = stepReasoning(out, final, reasoning.close);
      else if (mode === 'tool_call' && toolCall) progressed = stepToolCall(out, final, toolCall);
      else progressed = stepText(out, final);
    }
    return out;
  }

  return {
    push(chunk) {
      if (ended) throw new Error('StreamParser.push() called after end(); create a new parser per stream.');
      buffer += chunk;
      return drain(false);
    },
    end() {
      if (ended) return [];
      ended = true;
      return drain(true);
    },
    reasoningSpans() {
      const spans = reasoningSpans.map(([start, end]): Span => [start, end]);
      // Still inside a block: everything seen so far belongs to it.
      if (mode === 'reasoning') spans.push([reasoningStart, offset + buffer.length]);
      return spans;
    },
    toolCallSpans() {
      return toolCallSpans.map(([start, end]): Span => [start, end]);
    },
  };
}

function earliestTag(text: string, tags: string[]): { index: number; tag: string } | null {
  let best: { index: number; tag: string } | null = null;
  for (const tag of tags) {
    const index = text.indexOf(tag);
    if (index >= 0 && (!best || index < best.index)) best = { index, tag };
  }
  return best;
}

/** Length of the longest end of `text` that is a proper prefix of one of `tags`. */
function longestTagPrefixSuffix(text: string, tags: string[]): number {
  const longest = Math.max(0, ...tags.map((tag) => tag.length - 1));
  for (let length = Math.min(longest, text.length); length > 0; length -= 1) {
    const suffix = text.slice(text.length - length);
    if (tags.some((tag) => tag.startsWith(suffix))) return length;
  }
  return 0;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
