/** The `reasoning.effort` values of the Responses API (`openai` SDK `ReasoningEffort`). */
export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

/**
 * Maps a request's `reasoning.effort` onto `RenderInput.enableThinking`.
 *
 * Small open models cannot budget their reasoning: Qwen3's chat template offers one switch,
 * `enable_thinking`, and nothing in between. OpenAI's `none` and `minimal` ask for no (or
 * next to no) reasoning, so they turn thinking off; `low` through `xhigh` all ask for some,
 * so they turn it on. No effort at all means the caller did not choose: the model keeps its
 * default (Qwen3 thinks by default), which is why the answer is `undefined`, not `true`.
 *
 * @example
 * format.render({ ...input, enableThinking: thinkingFromEffort(request.reasoning?.effort) });
 */
export function thinkingFromEffort(effort: ReasoningEffort | null | undefined): boolean | undefined {
  switch (effort) {
    case 'none':
    case 'minimal':
      return false;
    case 'low':
    case 'medium':
    case 'high':
    case 'xhigh':
      return true;
    default:
      return undefined;
  }
}
