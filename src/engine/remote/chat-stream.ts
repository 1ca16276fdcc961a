/**
 * A Chat Completions stream read into parse events, one delta per chunk: text (`content`,
 * `refusal`), reasoning (`reasoning` — vLLM, Ollama, OpenRouter — or `reasoning_content` —
 * llama.cpp, SGLang, DeepSeek, LM Studio), tool calls assembled from their `tool_calls`
 * fragments, usage, the finish reason. Everything in it is untrusted model output.
 *
 * Tool-call fragments are keyed by `index`; `id`, `type` and `name` replace what came
 * before (llama.cpp sends them again, whole, when a parsed name grows), `arguments` append.
 * A call becomes a `tool_call` event once it is complete — when another call or text
 * follows, or the choice finishes — and only as a call of a tool the request enables whose
 * arguments are a JSON object; any other stays text (its JSON), as our own parsers keep a
 * `<tool_call>` they cannot accept.
 */
import type { ParseEvent } from '../../chat/chat-format';
import type { EngineDelta, FinishReason, SampledLogprob } from '../../ports/engine';

export interface StreamUsage {
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  reasoningTokens?: number;
}

/** What reading a stream learnt besides its deltas. */
export interface StreamEnd {
  finish: FinishReason | null;
  /** A finish reason we do not know (`abort`, `error`, …): the answer failed. */
  unknownFinish?: string;
  usage: StreamUsage | null;
}

interface CallSlot {
  id: string;
  name: string;
  args: string;
  done: boolean;
}

/** A tool call's arguments may be at most this long (the stream's byte limit bounds the rest). */
const MAX_ARGUMENTS = 1024 * 1024;

const utf8 = new TextEncoder();

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A token's logprob in OpenAI's shape, alternatives cut to `top` (llama.cpp adds an `id`, dropped). */
export function sampledLogprob(raw: unknown, top: number): SampledLogprob | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const o = raw as { token?: unknown; logprob?: unknown; bytes?: unknown; top_logprobs?: unknown };
  if (typeof o.token !== 'string' || typeof o.logprob !== 'number') return null;
  const bytes = Array.isArray(o.bytes) && o.bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255) ? (o.bytes as number[]) : [...utf8.encode(o.token)];
  const alternatives = Array.isArray(o.top_logprobs) ? o.top_logprobs : [];
  const top_logprobs = alternatives
    .slice(0, top)
    .map((a) => sampledLogprob({ ...(a as object), top_logprobs: [] }, 0))
    .flatMap((a) => (a ? [{ token: a.token, logprob: a.logprob, bytes: a.bytes }] : []));
  return { token: o.token, logprob: o.logprob, bytes, top_logprobs };
}

export function finishOf(reason: string): FinishReason | null {
  if (reason === 'stop' || reason === 'tool_calls' || reason === 'function_call' || reason === 'end_turn') return 'stop';
  if (reason === 'length') return 'length';
  if (reason === 'content_filter') return 'content_filter';
  return null;
}

/** A finished call as the event it becomes: a call of an enabled tool with object arguments, else text. */
export function callEvent(name: string, args: string, toolNames: ReadonlySet<string>): ParseEvent {
  const text = args.trim() === '' ? '{}' : args;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (toolNames.has(name) && typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return { type: 'tool_call', name, arguments: JSON.stringify(parsed) };
  return { type: 'text', text: JSON.stringify({ name, arguments: parsed ?? args }) };
}

export class ChatStreamReader {
  private readonly calls = new Map<number, CallSlot>();
  private reasoning = false;
  readonly end: StreamEnd = { finish: null, usage: null };

  /**
   * @param toolNames the tools the request enables (a call of another stays text)
   * @param topLogprobs alternatives per token the request asked for; undefined: no logprobs
   */
  constructor(
    private readonly toolNames: ReadonlySet<string>,
    private readonly topLogprobs: number | undefined,
  ) {}

  /** Whether the choice finished (what follows is the usage chunk and `[DONE]`). */
  get finished(): boolean {
    return this.end.finish !== null || this.end.unknownFinish !== undefined;
  }

  /** One parsed `data:` object (not `[DONE]`, not an error: the caller checks those). */
  push(chunk: Record<string, unknown>): EngineDelta | null {
    this.readUsage(chunk.usage);
    const choices = Array.isArray(chunk.choices) ? (chunk.choices as unknown[]) : [];
    // n = 1: the first choice is the answer.
    const choice = choices.find((c) => typeof c === 'object' && c !== null && ((c as { index?: unknown }).index ?? 0) === 0) as Record<string, unknown> | undefined;
    if (!choice) return null;
    const delta = (typeof choice.delta === 'object' && choice.delta !== null ? choice.delta : {}) as Record<string, unknown>;
    const events: ParseEvent[] = [];
    let tokens = 0;

    const thought = str(delta.reasoning) || str(delta.reasoning_content);
    if (thought) {
      events.push(...this.closeCalls());
      events.push({ type: 'reasoning', text: thought });
      this.reasoning = true;
      tokens = 1;
    }
    const text = str(delta.content) + str(delta.refusal);
    if (text) {
      events.push(...this.closeReasoning(), ...this.closeCalls());
      events.push({ type: 'text', text });
      tokens = 1;
    }
    if (Array.isArray(delta.tool_calls)) {
      events.push(...this.closeReasoning());
      for (const fragment of delta.tool_calls as unknown[]) events.push(...this.callFragment(fragment));
      tokens = 1;
    }
    let logprobs: SampledLogprob[] | undefined;
    const content = (choice.logprobs as { content?: unknown } | null | undefined)?.content;
    if (this.topLogprobs !== undefined && Array.isArray(content)) {
      logprobs = content.flatMap((raw) => sampledLogprob(raw, this.topLogprobs!) ?? []);
      if (logprobs.length) tokens = logprobs.length;
    }
    if (typeof choice.finish_reason === 'string' && choice.finish_reason) {
      events.push(...this.closeReasoning(), ...this.closeCalls());
      const finish = finishOf(choice.finish_reason);
      if (finish) this.end.finish = finish;
      else this.end.unknownFinish = choice.finish_reason;
    }
    if (events.length === 0 && tokens === 0) return null;
    // Logprobs belong to text only (ours never report reasoning or tool-call tokens).
    return { text: '', tokens, events, ...(logprobs && text ? { logprobs } : {}) };
  }

  /** The stream ended: calls not closed yet are complete now. */
  flush(): ParseEvent[] {
    return [...this.closeReasoning(), ...this.closeCalls()];
  }

  private callFragment(raw: unknown): ParseEvent[] {
    if (typeof raw !== 'object' || raw === null) return [];
    const f = raw as { index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } | null };
    const index = typeof f.index === 'number' ? f.index : this.calls.size;
    let slot = this.calls.get(index);
    const events: ParseEvent[] = [];
    if (!slot) {
      // A new call: the ones before it are complete.
      events.push(...this.closeCalls());
      slot = { id: '', name: '', args: '', done: false };
      this.calls.set(index, slot);
    }
    if (slot.done) return events;
    if (typeof f.id === 'string' && f.id) slot.id = f.id;
    if (typeof f.function?.name === 'string' && f.function.name) slot.name = f.function.name;
    const args = str(f.function?.arguments);
    if (slot.args.length + args.length > MAX_ARGUMENTS) throw new Error(`a tool call's arguments are longer than ${MAX_ARGUMENTS} characters`);
    slot.args += args;
    return events;
  }

  private closeCalls(): ParseEvent[] {
    const events: ParseEvent[] = [];
    for (const slot of this.calls.values()) {
      if (slot.done) continue;
      slot.done = true;
      if (slot.name) events.push(callEvent(slot.name, slot.args, this.toolNames));
    }
    return events;
  }

  private closeReasoning(): ParseEvent[] {
    if (!this.reasoning) return [];
    this.reasoning = false;
    return [{ type: 'reasoning_done' }];
  }

  private readUsage(raw: unknown): void {
    if (typeof raw !== 'object' || raw === null) return;
    const u = raw as { prompt_tokens?: unknown; completion_tokens?: unknown; reasoning_tokens?: unknown; prompt_tokens_details?: { cached_tokens?: unknown } | null; completion_tokens_details?: { reasoning_tokens?: unknown } | null };
    const count = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
    const input = count(u.prompt_tokens);
    const output = count(u.completion_tokens);
    if (input === undefined || output === undefined) return;
    const reasoning = count(u.completion_tokens_details?.reasoning_tokens) ?? count(u.reasoning_tokens);
    this.end.usage = { inputTokens: input, cachedTokens: count(u.prompt_tokens_details?.cached_tokens) ?? 0, outputTokens: output, ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}) };
  }
}
