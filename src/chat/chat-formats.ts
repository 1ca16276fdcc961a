/**
 * Every chat format, keyed by its name: what a catalog entry's `chat_format` refers to.
 *
 * - `qwen`: Qwen2.5-Instruct, Hermes — `<tool_call>` calls, `<think>` when the model writes it.
 * - `qwen3`: Qwen3 — as `qwen`, plus `enableThinking` (thinks by default).
 * - `llama3`: Llama 3.1 / 3.2 Instruct — bare JSON calls, no reasoning.
 * - `r1-distill`: DeepSeek-R1-Distill-Qwen / -Llama — always reasons (output starts inside
 *   `<think>`), no tools.
 * - `chatml-plain`, `smollm2`, `phi3`, `gemma`: ChatML models, SmolLM2, Phi-3.5-mini, Gemma 2
 *   — text only, no tools.
 * - `raw-completion`: base models without a template (test GGUFs): the last user text only.
 */
import type { ChatFormat } from './chat-format';
import { chatmlPlainFormat, smollm2Format } from './chatml-plain-format';
import { gemmaFormat } from './gemma-format';
import { llama3Format } from './llama3-format';
import { phi3Format } from './phi3-format';
import { qwen3Format } from './qwen3-format';
import { qwenFormat } from './qwen-format';
import { r1DistillFormat } from './r1-distill-format';
import { rawCompletionFormat } from './raw-completion-format';

export const chatFormats: Record<string, ChatFormat> = Object.fromEntries(
  [qwenFormat, qwen3Format, llama3Format, r1DistillFormat, chatmlPlainFormat, smollm2Format, phi3Format, gemmaFormat, rawCompletionFormat].map(
    (format) => [format.name, format],
  ),
);
