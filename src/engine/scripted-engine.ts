/**
 * The `test-scripted` model (contract in shared/TESTING.md): plays raw model text that the
 * last user message scripts, so protocol tests run through the real chat parsers.
 */
import type { ConversationItem } from '../chat/chat-format';
import { sleep } from '../shared/abort';
import { invalidRequest } from '../shared/api-error';
import type { Engine, EngineDelta, EngineUsage, FinishReason, GenerateRequest, Generation, ModelInfo } from './engine';
import { Codes } from '../shared/error-codes';

export const SCRIPTED_MODEL_ID = 'test-scripted';
export const SCRIPTED_CONTEXT_WINDOW = 32_768;

interface Script {
  output: string;
  delayMs: number;
  failAfter: number | null;
  chunk: number;
}

/** Reads the script from the conversation: the last user message, and tool results after it. */
export function readScript(conversation: ConversationItem[]): Script {
  let lastUser = -1;
  conversation.forEach((item, i) => {
    if (item.type === 'message' && item.role === 'user') lastUser = i;
  });
  const userItem = conversation[lastUser];
  const text = userItem?.type === 'message' ? userItem.text : '';
  const toolResults = conversation.slice(lastUser + 1).filter((i) => i.type === 'function_call_output').length;

  const fallback: Script = { output: `You said: ${text}`, delayMs: 0, failAfter: null, chunk: 4 };
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
    return [{ id: SCRIPTED_MODEL_ID, created: 1_700_000_000, owned_by: 'local-test', context_window: SCRIPTED_CONTEXT_WINDOW, chat_format: 'qwen', hidden: true }];
  }

  async countTokens(_model: string, prompt: string): Promise<number> {
    return Math.ceil(prompt.length / 4);
  }

  generate(request: GenerateRequest): Generation {
    const inputTokens = Math.ceil(request.prompt.length / 4);
    const script = readScript(request.conversation);
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
        yield { text: parts[i]!, tokens: 1 };
      }
    }

    return { usage, finishReason: () => finish, [Symbol.asyncIterator]: play };
  }
}
