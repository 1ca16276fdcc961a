/**
 * Chat settings and how they become request parameters. Stored in the app database
 * (`local-responses-app`, store `settings`, key `settings`; see app-db.ts). The web search
 * provider URL is not a request parameter: the app hands it to the runtime when it starts
 * it (main.tsx), so a change applies from the next reload.
 */
import type { ResponseCreateParamsStreaming, Tool } from 'openai/resources/responses/responses';

export type ReasoningEffort = 'default' | 'none' | 'low' | 'medium' | 'high';

export interface Settings {
  /** The model new messages go to; null until the person picks (or accepts a suggestion). */
  model: string | null;
  temperature: number;
  /** null: no limit beyond the model's context window. */
  maxOutputTokens: number | null;
  instructions: string;
  codeInterpreter: boolean;
  webSearch: boolean;
  /**
   * Search provider of the web_search tool: a SearXNG base URL; empty for the default
   * (Wikipedia). The runtime's web_search tool gets it at start; requests carry no provider.
   */
  webSearchProviderUrl: string;
  reasoningEffort: ReasoningEffort;
}

export const DEFAULT_SETTINGS: Settings = {
  model: null,
  temperature: 0.7,
  maxOutputTokens: null,
  instructions: '',
  // Off until the person turns them on: a runtime without them rejects the request.
  codeInterpreter: false,
  webSearch: false,
  webSearchProviderUrl: '',
  reasoningEffort: 'default',
};

/** The parts of a create request that come from the settings. */
export function requestOptions(settings: Settings): Pick<
  ResponseCreateParamsStreaming,
  'temperature' | 'max_output_tokens' | 'instructions' | 'tools' | 'include' | 'reasoning'
> {
  const tools: Tool[] = [];
  if (settings.codeInterpreter) tools.push({ type: 'code_interpreter', container: { type: 'auto' } });
  if (settings.webSearch) tools.push({ type: 'web_search' });
  return {
    temperature: settings.temperature,
    ...(settings.maxOutputTokens !== null ? { max_output_tokens: settings.maxOutputTokens } : {}),
    ...(settings.instructions.trim() ? { instructions: settings.instructions } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    // Logs and images of the interpreter are shown in its card.
    ...(settings.codeInterpreter ? { include: ['code_interpreter_call.outputs' as const] } : {}),
    ...(settings.reasoningEffort !== 'default' ? { reasoning: { effort: settings.reasoningEffort } } : {}),
  };
}
