/**
 * The `test-scripted` model (contract in shared/TESTING.md): plays raw model text that the
 * last user message scripts, so protocol tests run through the real chat parsers.
 *
 * Like any engine it gets only the rendered input (its chat format is `qwen`): the prompt is
 * what it is "shown" (usage and the context window count it), and the script is read from
 * the rendered messages, where Qwen shows tool results as user turns of
 * `<tool_response>` blocks.
 *
 * Logprobs (when `topLogprobs` is asked for), deterministic so tests can state them: the
 * token at output index i (0-based, one chunk = one token) has logprob `-(i % 5) / 10`;
 * its alternatives are the token itself followed by `topLogprobs - 1` made-up tokens
 * `<alt k>` (k = 1, 2, …) with logprob `-(i % 5) / 10 - k`, so the list is sorted, most
 * likely first, and the sampled token is the most likely. `bytes` are the UTF-8 bytes.
 */
import type { Rendered } from '../chat/chat-format';
import type { ChatMessage } from '../chat/chat-message';
import { sleep } from '../shared/abort';
import { invalidRequest } from '../shared/api-error';
import type { Engine, EngineDelta, EngineUsage, FinishReason, GenerateRequest, Generation, ModelInfo, SampledLogprob } from '../ports/engine';
import { Codes } from '../shared/error-codes';

export const SCRIPTED_MODEL_ID = 'test-scripted';
/**
 * The same model, one that sees: it takes `input_image` parts (others refuse them with a
 * 400) and its echo says how many images came with the last user turn —
 * `You said: <text> [2 images]` — so tests see images reach the engine.
 */
export const SCRIPTED_VISION_MODEL_ID = 'test-scripted-vision';
export const SCRIPTED_CONTEXT_WINDOW = 32_768;

interface Script {
  output: string;
  delayMs: number;
  failAfter: number | null;
  chunk: number;
}

/** A user turn that only carries tool results, as the `qwen` format writes one: `<tool_response>` blocks, one per result. */
const TOOL_RESPONSES = /^<tool_response>\n[\s\S]*\n<\/tool_response>$/;

/** How many tool results `message` shows the model (0 for a turn the user wrote). */
function toolResultsIn(message: ChatMessage): number {
  if (message.role === 'tool') return 1;
  if (message.role !== 'user' || !TOOL_RESPONSES.test(message.content)) return 0;
  return message.content.match(/(?:^|\n)<tool_response>\n/g)?.length ?? 0;
}

/** Reads the script from the rendered messages: the last user turn, and the tool results shown after it. */
export function readScript(messages: readonly ChatMessage[]): Script {
  const lastUser = messages.findLastIndex((m) => m.role === 'user' && toolResultsIn(m) === 0);
  const text = messages[lastUser]?.content ?? '';
  const toolResults = messages.slice(lastUser + 1).reduce((sum, m) => sum + toolResultsIn(m), 0);

  const images = messages[lastUser]?.images?.length ?? 0;
  const seen = images ? ` [${images} image${images > 1 ? 's' : ''}]` : '';
  const fallback: Script = { output: `You said: ${text}${seen}`, delayMs: 0, failAfter: null, chunk: 4 };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fallback;
  }
  if (typeof parsed !== 'object' || parsed === null || !('script' in parsed)) return fallback;
  const spec = parsed as { script: unknown; delay_ms?: unknown; fail_after?: unknown; chunk?: unknown };
  const entries = Array.isArray(spec.script) ? spec.script.map(String) : [String(spec.script)];
  const output = entries[Math.min(toolResults, entries.length - 1)] ?? '';
  return {
    output,
    delayMs: typeof spec.delay_ms === 'number' ? spec.delay_ms : 0,
    failAfter: typeof spec.fail_after === 'number' ? spec.fail_after : null,
    chunk: typeof spec.chunk === 'number' && spec.chunk >= 1 ? Math.floor(spec.chunk) : 4,
  };
}

const utf8 = new TextEncoder();

/** The logprob of the token at output index `index` (see the header for the rule). */
export function scriptedLogprob(token: string, index: number, topLogprobs: number): SampledLogprob {
  const logprob = 0 - (index % 5) / 10; // never -0: it would not survive JSON
  const alternatives = Array.from({ length: Math.max(0, topLogprobs - 1) }, (_, k) => {
    const alt = `<alt ${k + 1}>`;
    return { token: alt, logprob: logprob - (k + 1), bytes: [...utf8.encode(alt)] };
  });
  const bytes = [...utf8.encode(token)];
  const top = topLogprobs > 0 ? [{ token, logprob, bytes }, ...alternatives] : [];
  return { token, logprob, bytes, top_logprobs: top };
}

/** Splits by code points so a chunk never cuts a surrogate pair. */
function chunks(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

export class ScriptedEngine implements Engine {
  readonly name = 'scripted';

  models(): ModelInfo[] {
    const model = { created: 1_700_000_000, owned_by: 'local-test', context_window: SCRIPTED_CONTEXT_WINDOW, chat_format: 'qwen', hidden: true };
    return [
      { id: SCRIPTED_MODEL_ID, ...model },
      { id: SCRIPTED_VISION_MODEL_ID, ...model, input_modalities: ['text', 'image'] },
    ];
  }

  /** ceil(prompt characters / 4): the prompt is the text this model is shown. */
  /** Its tokens are defined as 4 characters of the prompt: the count is exact by definition. */
  readonly exactTokenCounts: boolean = true;
  readonly reportsLogprobs: boolean = true;

  async countTokens(_model: string, input: Rendered): Promise<number> {
    return Math.ceil(input.prompt.length / 4);
  }

  generate(request: GenerateRequest): Generation {
    const inputTokens = Math.ceil(request.input.prompt.length / 4);
    const script = readScript(request.input.messages);
    let finish: FinishReason = 'stop';

    const usage: Promise<EngineUsage> =
      inputTokens > SCRIPTED_CONTEXT_WINDOW
        ? Promise.reject(
            invalidRequest(
              `Your input exceeds the context window of this model (${inputTokens} tokens requested, ${SCRIPTED_CONTEXT_WINDOW} allowed). Shorten the input or start a new conversation.`,
              'input',
              Codes.contextLengthExceeded,
            ),
          )
        : Promise.resolve({ inputTokens, cachedTokens: 0 });
    usage.catch(() => undefined); // observed by the server; never an unhandled rejection here

    async function* play(): AsyncGenerator<EngineDelta> {
      await usage;
      const parts = chunks(script.output, script.chunk);
      for (let i = 0; i < parts.length; i++) {
        if (request.maxOutputTokens !== undefined && i >= request.maxOutputTokens) {
          finish = 'length';
          return;
        }
        if (script.failAfter !== null && i >= script.failAfter)
          throw new Error(`scripted failure after ${script.failAfter} tokens`);
        if (script.delayMs > 0) {
          try {
            await sleep(script.delayMs, request.signal);
          } catch {
            finish = 'abort';
            return;
          }
        }
        if (request.signal.aborted) {
          finish = 'abort';
          return;
        }
        const text = parts[i]!;
        yield request.topLogprobs === undefined ? { text, tokens: 1 } : { text, tokens: 1, logprobs: [scriptedLogprob(text, i, request.topLogprobs)] };
      }
    }

    return { usage, finishReason: () => finish, [Symbol.asyncIterator]: play };
  }
}
