/**
 * An MCP port stand-in for the turn-loop tests: servers keyed by URL, a fixed tool list,
 * and a record of every call with the headers it came with. The real client is tested
 * against a real server in `src/tools/mcp/mcp-client.test.ts` and in Chromium.
 */
import type { McpFailure, McpPort, McpServerTarget, McpToolInfo } from '../../src/ports/tool-ports';

export const FAKE_TOOLS: McpToolInfo[] = [
  { name: 'add', description: 'Add two numbers.', input_schema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } }, annotations: { readOnlyHint: true } },
  { name: 'shout', description: 'Upper-case a text.', input_schema: { type: 'object', properties: { text: { type: 'string' } } } },
];

export interface FakeMcp extends McpPort {
  lists: Array<{ url: string; headers: Readonly<Record<string, string>> }>;
  calls: Array<{ url: string; name: string; args: Record<string, unknown>; headers: Readonly<Record<string, string>> }>;
}

/** `http://down.test/…` is unreachable; `http://locked.test/…` answers every call 401. */
export function fakeMcp(): FakeMcp {
  const lists: FakeMcp['lists'] = [];
  const calls: FakeMcp['calls'] = [];
  const down = (s: McpServerTarget): McpFailure => ({ kind: 'http', status: 0, message: `The MCP server '${s.label}' could not be reached.` });
  return {
    lists,
    calls,
    async listTools(server) {
      lists.push({ url: server.url, headers: server.headers });
      if (server.url.startsWith('http://down.test')) return { ok: false, error: down(server) };
      return { ok: true, value: FAKE_TOOLS };
    },
    async callTool(server, name, args) {
      calls.push({ url: server.url, name, args, headers: server.headers });
      if (server.url.startsWith('http://locked.test')) return { ok: false, error: { kind: 'http', status: 401, message: `The MCP server '${server.label}' refused the request (HTTP 401).` } };
      if (name === 'add') return { ok: true, value: { output: String(Number(args.a) + Number(args.b)), isError: false, content: [] } };
      return { ok: true, value: { output: String(args.text).toUpperCase(), isError: false, content: [] } };
    },
  };
}
