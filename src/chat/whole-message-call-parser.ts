/**
 * A streaming parser for families whose tool calls have no tags: the whole assistant message
 * is one or more bare JSON calls (Llama 3.x: `{"name": "f", "parameters": {…}}`, possibly
 * after `<|python_tag|>`). Anything else is an answer.
 *
 * Invariants (tested with the input split at every position), as for the tag parser:
 * - Events do not depend on how the input is chunked, once adjacent text events are merged.
 * - Output that cannot be a call streams as text at once. While it still may be one — it
 *   starts, after whitespace, with `{` or the prefix, and every object so far was a call of an
 *   enabled tool, separated by `;` or a newline — it is held back whole. At the end, if all of
 *   it is calls, each becomes a `tool_call` event; otherwise all of it is text. Without
 *   enabled tools nothing is ever held.
 * - Text events + the raw blocks of accepted calls (`toolCallSpans`: prefix and `;` included,
 *   whitespace between calls left as text) reproduce the input byte for byte.
 */
import type { ParseEvent, ParserOptions } from './chat-format';
import type { ToolCallBody } from './hermes-tool-call';
import { createTagStreamParser, type TagStreamParser } from './stream-parser';

export interface WholeMessageCallGrammar {
  /** A token the model may write before a call (Llama 3.x: `<|python_tag|>`). */
  prefix?: string;
  /** Reads one JSON object; `null` when it is not a call. */
  parse(json: string): ToolCallBody | null;
}

interface FoundCall extends ToolCallBody {
  /** Where the call starts: its prefix, or its `{`. */
  start: number;
}

type Span = [number, number];

/**
 * @example
 * const parser = createWholeMessageCallParser({ parse: parseLlamaToolCall }, { toolNames: new Set(['f']) });
 * parser.push('{"name": "f", ');          // [] — may still be a call
 * parser.push('"parameters": {"a": 1}}'); // []
 * parser.end();                           // [{ type: 'tool_call', name: 'f', arguments: '{"a":1}' }]
 */
export function createWholeMessageCallParser(grammar: WholeMessageCallGrammar, options: ParserOptions): TagStreamParser {
  // Once the output is known to be an answer, the plain tag parser (no tags) streams it.
  const text = createTagStreamParser({}, options);
  const scanner = createCallScanner(grammar, options.toolNames, options.acceptsCall);
  let holding = options.toolNames.size > 0;
  let held = '';
  let ended = false;
  const spans: Span[] = [];

  function release(final: boolean): ParseEvent[] {
    holding = false;
    const out = text.push(held);
    held = '';
    return final ? [...out, ...text.end()] : out;
  }

  function emitCalls(calls: FoundCall[]): ParseEvent[] {
    const out: ParseEvent[] = [];
    const whitespace = (value: string) => value && out.push({ type: 'text', text: value });
    let from = 0;
    calls.forEach((call, index) => {
      const segmentEnd = calls[index + 1]?.start ?? held.length;
      const end = call.start + held.slice(call.start, segmentEnd).trimEnd().length;
      whitespace(held.slice(from, call.start));
      out.push({ type: 'tool_call', name: call.name, arguments: call.arguments });
      spans.push([call.start, end]);
      from = end;
    });
    whitespace(held.slice(from));
    return out;
  }

  return {
    push(chunk) {
      if (ended) throw new Error('StreamParser.push() called after end(); create a new parser per stream.');
      if (!holding) return text.push(chunk);
      held += chunk;
      return scanner.scan(held, false) === 'not_calls' ? release(false) : [];
    },
    end() {
      if (ended) return [];
      ended = true;
      if (!holding) return text.end();
      if (scanner.scan(held, true) === 'calls') {
        holding = false;
        return emitCalls(scanner.calls);
      }
      return release(true);
    },
    reasoningSpans() {
      return text.reasoningSpans();
    },
    toolCallSpans() {
      return spans.map(([start, end]): Span => [start, end]);
    },
  };
}

type Verdict = 'calls' | 'maybe' | 'not_calls';

/**
 * Reads `text` (always the whole output so far) from where the last scan stopped. `maybe`:
 * everything so far could still be calls; `not_calls` is final. With `final`, `maybe` becomes
 * `calls` when at least one complete call was read and nothing is left unfinished.
 */
function createCallScanner(grammar: WholeMessageCallGrammar, toolNames: ReadonlySet<string>, acceptsCall?: (name: string, args: string) => boolean) {
  const { prefix } = grammar;
  // `start`: before the first call; `prefix`: inside the prefix; `open`: after a prefix, before `{`;
  // `object`: inside a JSON object; `between`: after a call.
  let phase: 'start' | 'prefix' | 'open' | 'object' | 'between' = 'start';
  let pos = 0;
  let callStart = 0;
  let objectStart = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** After a call: a `;` or newline came, so another call may follow. */
  let separated = false;
  let semicolon = false;
  let verdict: Verdict = 'maybe';
  /** The text of the current `scan`. */
  let output = '';
  const calls: FoundCall[] = [];

  /** At a non-space character where a call may begin; false when it cannot begin there. */
  function beginCall(char: string): boolean {
    callStart = pos;
    if (char === '{') {
      objectStart = pos;
      phase = 'object';
      return true;
    }
    if (prefix && char === prefix[0]) {
      phase = 'prefix';
      return true;
    }
    return false;
  }

  function closeObject(): boolean {
    const call = grammar.parse(output.slice(objectStart, pos + 1));
    if (!call || !toolNames.has(call.name) || !(acceptsCall?.(call.name, call.arguments) ?? true)) return false;
    calls.push({ ...call, start: callStart });
    phase = 'between';
    separated = false;
    semicolon = false;
    return true;
  }

  /**
   * Reads the character at `pos`; false when the output cannot be calls. Moves past it,
   * except when it begins a call: then the new phase reads it again.
   */
  function step(char: string): boolean {
    switch (phase) {
      case 'start':
        if (/\s/.test(char)) break;
        return beginCall(char);
      case 'between':
        if (char === '\n') separated = true;
        else if (char === ';') {
          if (semicolon) return false;
          semicolon = separated = true;
        } else if (!/\s/.test(char)) return separated && beginCall(char);
        break;
      case 'open':
        if (/\s/.test(char)) break;
        if (char !== '{') return false;
        objectStart = pos;
        phase = 'object';
        return true;
      case 'object':
        if (inString) {
          if (escaped) escaped = false;
          else if (char === '\\') escaped = true;
          else if (char === '"') inString = false;
        } else if (char === '"') inString = true;
        else if (char === '{') depth += 1;
        else if (char === '}') {
          depth -= 1;
          if (depth === 0 && !closeObject()) return false;
        }
        break;
      case 'prefix':
        throw new Error('unreachable: the prefix is matched whole by matchPrefix()');
    }
    pos += 1;
    return true;
  }

  /** In the `prefix` phase: the prefix is matched as a whole, once enough text has come. */
  function matchPrefix(tag: string): 'matched' | 'wait' | 'mismatch' {
    const seen = output.slice(callStart, callStart + tag.length);
    if (seen.length < tag.length) return tag.startsWith(seen) ? 'wait' : 'mismatch';
    if (seen !== tag) return 'mismatch';
    pos = callStart + tag.length;
    phase = 'open';
    return 'matched';
  }

  function scan(text: string, final: boolean): Verdict {
    if (verdict === 'not_calls') return verdict;
    output = text;
    while (pos < text.length) {
      if (phase === 'prefix' && prefix) {
        const match = matchPrefix(prefix);
        if (match === 'mismatch') return (verdict = 'not_calls');
        if (match === 'wait') break;
      } else if (!step(text[pos] as string)) return (verdict = 'not_calls');
    }
    if (!final) return verdict;
    verdict = phase === 'between' ? 'calls' : 'not_calls';
    return verdict;
  }

  return { scan, calls };
}
