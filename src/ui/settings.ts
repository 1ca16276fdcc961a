/**
 * Chat settings and how they become request parameters. Stored in the app database
 * (`local-responses-app`, store `settings`, key `settings`; see app-db.ts). The web search
 * provider URL is not a request parameter: the app hands it to the runtime when it starts
 * it (main.tsx), so a change applies from the next reload. The retention of stored
 * responses goes to the runtime at start too, and to the running one when it changes.
 */
import type { ResponseCreateParamsStreaming, Tool } from 'openai/resources/responses/responses';
import * as z from 'zod/mini';
import type { RetentionWire } from '../protocol/local-storage';
import type { McpTokens } from './mcp-tokens';

export type ReasoningEffort = 'default' | 'none' | 'low' | 'medium' | 'high';

/**
 * An MCP server the person added. Its host is allowed past the private-network rule (a
 * server on `localhost` is a normal case), and chats send it as an `mcp` tool. No token
 * is kept here: this is IndexedDB, where secrets must not be (see mcp-tokens.ts).
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
   * (Wikipedia). The runtime's web_search tool gets it at start; requests carry no provider.
   */
  webSearchProviderUrl: string;
  reasoningEffort: ReasoningEffort;
  /** How long the runtime keeps stored responses (whole chats, oldest last use first). */
  retention: RetentionSetting;
  mcpServers: McpServerSetting[];
}

/** The runtime's retention policy, as the app keeps it. null: no limit of that kind. */
export interface RetentionSetting {
  maxAgeDays: number | null;
  /** 1000-based, like every size the app shows. */
  maxBytes: number | null;
}

const MB = 1_000_000;

/** What the Settings dialog offers; a stored value outside these still shows (as "Custom"). */
export const RETENTION_DAYS: ReadonlyArray<number | null> = [7, 30, 90, 365, null];
export const RETENTION_BYTES: ReadonlyArray<number | null> = [50 * MB, 200 * MB, 1000 * MB, null];

/** The runtime's own default (server/retention.ts; a test keeps the two equal). */
export const DEFAULT_RETENTION_SETTING: RetentionSetting = { maxAgeDays: 90, maxBytes: 200 * MB };

// Checked when read: a stored 0-day or negative budget would delete everything at start.
const StoredRetention = z.object({
  maxAgeDays: z.nullable(z.number().check(z.positive())),
  maxBytes: z.nullable(z.number().check(z.int(), z.nonnegative())),
});

/** The stored retention if it is a valid one, else the default (with a console error). */
export function retentionFrom(stored: unknown): RetentionSetting {
  if (stored === undefined) return DEFAULT_RETENTION_SETTING;
  const parsed = StoredRetention.safeParse(stored);
  if (parsed.success) return { maxAgeDays: parsed.data.maxAgeDays, maxBytes: parsed.data.maxBytes };
  console.error('Ignoring the stored retention setting (not a valid policy); using the default.', stored);
  return DEFAULT_RETENTION_SETTING;
}

export function retentionWire(setting: RetentionSetting): RetentionWire {
  return { max_age_days: setting.maxAgeDays, max_bytes: setting.maxBytes };
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
  retention: DEFAULT_RETENTION_SETTING,
  mcpServers: [],
};

/**
 * The parts of a create request that come from the settings. `mcpTokens` (by server label)
 * become the `mcp` tools' `authorization`: a continuation must send them again.
 */
export function requestOptions(settings: Settings, mcpTokens: McpTokens = {}): Pick<
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
      // Own keys only: a label such as `constructor` must not pick up Object's.
      ...(Object.hasOwn(mcpTokens, server.label) && mcpTokens[server.label] ? { authorization: mcpTokens[server.label] } : {}),
      ...(server.allowedTools.length ? { allowed_tools: server.allowedTools } : {}),
    });
  return {
    temperature: settings.temperature,
    ...(settings.maxOutputTokens !== null ? { max_output_tokens: settings.maxOutputTokens } : {}),
    ...(settings.instructions.trim() ? { instructions: settings.instructions } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    // Logs and images of the interpreter, and a search's sources, are shown in their cards.
    ...(settings.codeInterpreter || settings.webSearch
      ? {
          include: [
            ...(settings.codeInterpreter ? (['code_interpreter_call.outputs'] as const) : []),
            ...(settings.webSearch ? (['web_search_call.action.sources'] as const) : []),
          ],
        }
      : {}),
    ...(settings.reasoningEffort !== 'default' ? { reasoning: { effort: settings.reasoningEffort } } : {}),
  };
}
