/**
 * The runtime's MCP client: `McpPort` over the official SDK's client, Streamable HTTP first
 * and the older HTTP+SSE transport when the server does not speak it. One connection per
 * operation: nothing (session, token) outlives the call that needed it.
 *
 * Every request, the SDK's own included, goes through `guardedFetch`: the URL policy of the
 * web tools (no private network unless the user allowed that server), no cookies, no
 * referrer. Failures come back as data with a message that says which server, what went
 * wrong and what to do, with every header value (tokens) scrubbed from it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpFailure, McpOutcome, McpPort, McpServerTarget, McpToolInfo, McpToolResult } from '../../ports/tool-ports';
import { checkUrl, type UrlPolicy } from '../web/url-policy';
import { toolOutputText } from './tool-output-text';

export interface McpClientOptions {
  policy: UrlPolicy;
  /** A tool's output is cut to this many characters. Default 20 000. */
  maxOutputChars?: number;
  /** Per operation (connect + list, or connect + call), ms. Default 60 000. */
  timeoutMs?: number;
  /** Injected for tests; default the global `fetch`. */
  fetch?: typeof fetch;
}

/** Tool lists are paged; a server that pages on and on is cut off here. */
const MAX_PAGES = 20;

class BlockedUrl extends Error {}

export function createMcpClient(options: McpClientOptions): McpPort {
  const baseFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const maxChars = options.maxOutputChars ?? 20_000;
  const timeout = options.timeoutMs ?? 60_000;

  const guardedFetch =
    (signal: AbortSignal): typeof fetch =>
    async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      const verdict = checkUrl(url, options.policy);
      if (!verdict.ok) throw new BlockedUrl(verdict.reason);
      return baseFetch(input, {
        ...init,
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
        redirect: init?.redirect ?? 'manual',
        signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal,
      });
    };

  async function withClient<T>(server: McpServerTarget, signal: AbortSignal, use: (client: Client) => Promise<T>): Promise<McpOutcome<T>> {
    const verdict = checkUrl(server.url, options.policy);
    if (!verdict.ok) return { ok: false, error: blocked(server, verdict.reason) };
    const opSignal = AbortSignal.any([signal, AbortSignal.timeout(timeout)]);
    const requestInit: RequestInit = { headers: { ...server.headers } };
    const fetchFn = guardedFetch(opSignal);
    const attempt = async (transport: Transport): Promise<T> => {
      const client = new Client({ name: 'local-responses', version: '0.1.0' });
      try {
        await client.connect(transport, { signal: opSignal, timeout });
        return await use(client);
      } finally {
        await client.close().catch(() => undefined);
      }
    };
    try {
      try {
        return { ok: true, value: await attempt(new StreamableHTTPClientTransport(verdict.url, { requestInit, fetch: fetchFn, reconnectionOptions: NO_RECONNECT })) };
      } catch (err) {
        // 404/405 on the first POST: an older server that speaks HTTP+SSE.
        if (!(err instanceof StreamableHTTPError) || !isLegacyHint(err.code ?? 0)) throw err;
        return { ok: true, value: await attempt(new SSEClientTransport(verdict.url, { requestInit, fetch: fetchFn, eventSourceInit: { fetch: fetchFn } })) };
      }
    } catch (err) {
      return { ok: false, error: scrub(describe(server, err, options.policy.appOrigin, timeout), server.headers) };
    }
  }

  return {
    listTools: (server, signal) =>
      withClient(server, signal, async (client): Promise<McpToolInfo[]> => {
        const tools: McpToolInfo[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < MAX_PAGES; page++) {
          const result = await client.listTools(cursor ? { cursor } : undefined, { signal });
          for (const t of result.tools)
            tools.push({ name: t.name, description: t.description ?? null, input_schema: t.inputSchema, ...(t.annotations ? { annotations: t.annotations } : {}) });
          cursor = result.nextCursor;
          if (!cursor) break;
        }
        return tools;
      }),
    callTool: (server, name, args, signal) =>
      withClient(server, signal, async (client): Promise<McpToolResult> => {
        const result = await client.callTool({ name, arguments: args }, undefined, { signal, timeout });
        const content = 'content' in result ? result.content : [];
        const output = toolOutputText(content, 'structuredContent' in result ? result.structuredContent : undefined, maxChars);
        return { output, isError: result.isError === true, content };
      }),
  };
}

const NO_RECONNECT = { maxReconnectionDelay: 0, initialReconnectionDelay: 0, reconnectionDelayGrowFactor: 1, maxRetries: 0 };

function isLegacyHint(status: number): boolean {
  return status === 404 || status === 405;
}

function blocked(server: McpServerTarget, reason: string): McpFailure {
  return {
    kind: 'http',
    status: 0,
    message: `The MCP server '${server.label}' (${server.url}) was not contacted: ${reason}. To use a server on this machine or your network, allow it in the app's settings (MCP servers).`,
  };
}

function describe(server: McpServerTarget, err: unknown, appOrigin: string, timeoutMs: number): McpFailure {
  const where = `The MCP server '${server.label}' (${server.url})`;
  if (err instanceof BlockedUrl) return blocked(server, err.message);
  const status = err instanceof StreamableHTTPError || err instanceof SseError ? (err.code ?? 0) : 0;
  if (status === 401 || status === 403)
    return {
      kind: 'http',
      status,
      message: `${where} refused the request (HTTP ${status}${status === 401 ? ' Unauthorized' : ' Forbidden'}): the token is missing, wrong or expired. Send a valid token in the tool's 'authorization' (or set it for this server in the app's settings).`,
    };
  if (status > 0) return { kind: 'http', status, message: `${where} answered HTTP ${status}: ${(err as Error).message}. Check the server URL and that it speaks MCP over HTTP.` };
  if (err instanceof McpError) return { kind: 'protocol', code: err.code, message: `${where} answered with an MCP error: ${err.message}` };
  if (err instanceof Error && (err.name === 'TimeoutError' || /timed? ?out/i.test(err.message)))
    return { kind: 'http', status: 0, message: `${where} did not answer within ${Math.round(timeoutMs / 1000)} s. Check that it is running, or try again.` };
  if (err instanceof TypeError || (err instanceof Error && /fetch/i.test(err.message)))
    return {
      kind: 'http',
      status: 0,
      message: `${where} could not be reached: it is not running, the address is wrong, or it does not allow this app (${appOrigin}) by CORS — a browser cannot tell these apart. Check that the server is up and that it answers CORS for ${appOrigin} (allowing the headers Content-Type, Authorization, Mcp-Session-Id and Mcp-Protocol-Version).`,
    };
  return { kind: 'http', status: 0, message: `${where} failed: ${err instanceof Error ? err.message : String(err)}` };
}

/** No secret leaves in a message, even if a server echoed one back. */
function scrub(failure: McpFailure, headers: Readonly<Record<string, string>>): McpFailure {
  let message = failure.message;
  for (const value of Object.values(headers)) {
    for (const secret of [value, value.replace(/^Bearer\s+/i, '')]) if (secret.length >= 4) message = message.split(secret).join('[redacted]');
  }
  return { ...failure, message };
}
