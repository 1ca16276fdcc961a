/**
 * A GGUF model's own chat template (`tokenizer.chat_template`, the Jinja template from its
 * `tokenizer_config.json`), rendered with `@huggingface/jinja` — the implementation
 * transformers.js uses for the same templates.
 *
 * The messages come from our chat formats with tool definitions, tool calls and tool results
 * already written into their content in the family's syntax, so the template gets no `tools`
 * variable (it would render the definitions a second time).
 */
import { Template } from '@huggingface/jinja';
import type { ChatMessage } from '../../chat/chat-message';

export interface ChatTemplateVariables {
  /** The BOS token as text; '' (the default) when unknown or when the engine adds BOS itself. */
  bosToken?: string;
  /** The EOS token as text; '' (the default) when unknown. */
  eosToken?: string;
  /** Passed as `enable_thinking` (Qwen3's switch) only when defined, so the template's default holds otherwise. */
  enableThinking?: boolean;
}

/**
 * A parsed chat template. Parsing throws on a template our Jinja cannot read; so can
 * `render` (an unknown filter, `raise_exception(...)`): callers fall back to their own prompt.
 *
 * @example
 * const template = new GgufChatTemplate(wllama.getChatTemplate()!);
 * template.render([{ role: 'user', content: 'Hi' }], { enableThinking: false });
 * // '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n' (a ChatML template)
 */
export class GgufChatTemplate {
  private readonly template: Template;

  constructor(readonly source: string) {
    this.template = new Template(source);
  }

  /** The prompt for `messages`, ending where the assistant's reply starts (`add_generation_prompt`). */
  render(messages: readonly ChatMessage[], variables: ChatTemplateVariables = {}): string {
    const context: Record<string, unknown> = {
      // The interpreter converts these into its own values: a template cannot change the request's messages.
      messages,
      add_generation_prompt: true,
      bos_token: variables.bosToken ?? '',
      eos_token: variables.eosToken ?? '',
    };
    if (variables.enableThinking !== undefined) context.enable_thinking = variables.enableThinking;
    return this.template.render(context);
  }
}

/** The rendered prompt, or null (after a warning naming `model`) when the template fails. */
export function renderWithTemplate(
  template: GgufChatTemplate,
  model: string,
  messages: readonly ChatMessage[],
  variables: ChatTemplateVariables = {},
): string | null {
  try {
    return template.render(messages, variables);
  } catch (err) {
    console.warn(`The chat template of ${model} failed (${errorText(err)}); using our own prompt format for it instead.`);
    return null;
  }
}

/** `source` parsed, or null (after a warning naming `model`) when our Jinja cannot read it. */
export function parseChatTemplate(source: string, model: string): GgufChatTemplate | null {
  try {
    return new GgufChatTemplate(source);
  } catch (err) {
    console.warn(`The chat template of ${model} could not be parsed (${errorText(err)}); using our own prompt format for it instead.`);
    return null;
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
