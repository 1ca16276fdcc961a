/**
 * The Settings dialog's "add an MCP server" form, checked before anything is saved: what
 * the server would refuse (a bad label, a URL that is not http(s)) is said next to the
 * field instead of failing every later chat with a 400.
 */
import type { McpServerSetting } from './settings';

export interface McpServerFields {
  label: string;
  url: string;
  token: string;
  /** Comma-separated tool names; empty: all of the server's tools. */
  tools: string;
  requireApproval: 'always' | 'never';
}

export type McpServerFormResult =
  | { ok: true; server: McpServerSetting; token: string }
  | { ok: false; field: 'label' | 'url'; message: string };

/** The `server_label` rule of the create request (protocol/create-request.ts; a test keeps them equal). */
export const SERVER_LABEL = /^[a-zA-Z][a-zA-Z0-9_-]{0,47}$/;

export function parseMcpServerFields(fields: McpServerFields, existing: readonly McpServerSetting[]): McpServerFormResult {
  const label = fields.label.trim();
  if (!SERVER_LABEL.test(label))
    return { ok: false, field: 'label', message: 'Start with a letter; then letters, digits, _ or -, at most 48 characters.' };
  // The label names the server's tools to the model and keys its token: it must be unique.
  if (existing.some((s) => s.label === label)) return { ok: false, field: 'label', message: `There is already a server named ${label}.` };
  const url = fields.url.trim();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, field: 'url', message: 'Give the full address, e.g. http://localhost:3000/mcp.' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, field: 'url', message: 'The address must start with http:// or https://.' };
  const allowedTools = [...new Set(fields.tools.split(',').map((t) => t.trim()).filter(Boolean))];
  return { ok: true, server: { label, url: parsed.href, allowedTools, requireApproval: fields.requireApproval }, token: fields.token.trim() };
}
