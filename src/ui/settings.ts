/**
 * Chat settings and how they become request parameters. Stored in the app database
 * (`local-responses-app`, store `settings`, key `settings`); the web search provider URL
 * lives here for the tools to read.
 */
import type { ResponseCreateParamsStreaming, Tool } from 'openai/resources/responses/responses';
import type { AppDatabase } from './app-db';
import { SETTINGS_KEY } from './app-db';

export type ReasoningEffort = 'default' | 'none' | 'low' | 'medium' | 'high';

/**
 * An MCP server the person added. Its host is allowed past the private-network rule (a
 * server on `localhost` is a normal case), and chats send it as an `mcp` tool. No token
 * is kept here: this is IndexedDB, where secrets must not be.
 */
export interface McpServerSetting {
  label: string;
  url: string;
  /** Tool names the model may use; empty: all of them. */
  allowedTools: string[];
  requireApproval: 'always' | 'never';
}

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
   * (Wikipedia). Kept here for the runtime's tools to read; requests carry no provider.
   */
  webSearchProviderUrl: string;
  reasoningEffort: ReasoningEffort;
  mcpServers: McpServerSetting[];
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
  mcpServers: [],
};

export async function loadSettings(db: AppDatabase): Promise<Settings> {
  const stored = await db.get('settings', SETTINGS_KEY);
  return { ...DEFAULT_SETTINGS, ...stored };
}

export async function saveSettings(db: AppDatabase, settings: Settings): Promise<void> {
  await db.put('settings', settings, SETTINGS_KEY);
}

/** The parts of a create request that come from the settings. */
export function requestOptions(settings: Settings): Pick<
  ResponseCreateParamsStreaming,
  'temperature' | 'max_output_tokens' | 'instructions' | 'tools' | 'include' | 'reasoning'
> {
  const tools: Tool[] = [];
  if (settings.codeInterpreter) tools.push({ type: 'code_interpreter', container: { type: 'auto' } });
  if (settings.webSearch) tools.push({ type: 'web_search' });
  for (const server of settings.mcpServers)
    tools.push({
      type: 'mcp',
      server_label: server.label,
      server_url: server.url,
      require_approval: server.requireApproval,
      ...(server.allowedTools.length ? { allowed_tools: server.allowedTools } : {}),
    });
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
