// The real MCP client against a real MCP server (the SDK's server side) on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMcpServer, type TestMcpServer } from '../../../test/fixtures/mcp-server';
import type { McpServerTarget } from '../../ports/tool-ports';
import { createMcpClient } from './mcp-client';

const appOrigin = 'http://app.test';
const signal = () => AbortSignal.timeout(10_000);

describe('createMcpClient against a real MCP server', () => {
  let open: TestMcpServer;
  let locked: TestMcpServer;
  beforeAll(async () => {
    open = await startTestMcpServer();
    locked = await startTestMcpServer({ token: 'sekrit-token-123' });
  });
  afterAll(async () => {
    await open.close();
    await locked.close();
  });

  const allowAll = () => createMcpClient({ policy: { appOrigin, allowHosts: [open.host, locked.host] } });
  const target = (server: TestMcpServer, headers: Record<string, string> = {}): McpServerTarget => ({ label: 'test', url: server.url, headers });

  it('lists the tools with their schemas and annotations', async () => {
    const listed = await allowAll().listTools(target(open), signal());
    expect(listed.ok).toBe(true);
    if (!listed.ok) return;
    expect(listed.value.map((t) => t.name).sort()).toEqual(['add', 'big', 'fail', 'shout']);
    const add = listed.value.find((t) => t.name === 'add');
    expect(add?.input_schema).toMatchObject({ type: 'object', properties: { a: { type: 'number' } } });
    expect(add?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('calls a tool and returns its text; a tool error is isError with its content', async () => {
    const client = allowAll();
    expect(await client.callTool(target(open), 'add', { a: 2, b: 3 }, signal())).toMatchObject({ ok: true, value: { output: '5', isError: false } });
    expect(await client.callTool(target(open), 'fail', {}, signal())).toMatchObject({ ok: true, value: { output: 'the tool broke', isError: true } });
  });

  it('cuts a long output to the limit', async () => {
    const client = createMcpClient({ policy: { appOrigin, allowHosts: [open.host] }, maxOutputChars: 100 });
    const result = await client.callTool(target(open), 'big', { n: 5000 }, signal());
    expect(result.ok && result.value.output.length).toBeLessThan(200);
    expect(result.ok && result.value.output).toMatch(/cut at 100 characters/);
  });

  it('refuses a private address that the user did not allow, without contacting it', async () => {
    const before = open.requests;
    const listed = await createMcpClient({ policy: { appOrigin } }).listTools(target(open), signal());
    expect(listed).toMatchObject({ ok: false, error: { kind: 'http', status: 0 } });
    expect(!listed.ok && listed.error.message).toMatch(/not contacted.*private-network.*settings/s);
    expect(open.requests).toBe(before);
  });

  it('a 401 says so and what to do; the token is never in the message', async () => {
    const listed = await allowAll().listTools(target(locked, { Authorization: 'Bearer wrong-token-456' }), signal());
    expect(listed).toMatchObject({ ok: false, error: { kind: 'http', status: 401 } });
    expect(!listed.ok && listed.error.message).toMatch(/401 Unauthorized.*'authorization'/);
    expect(JSON.stringify(listed)).not.toContain('wrong-token-456');
    const ok = await allowAll().callTool(target(locked, { Authorization: 'Bearer sekrit-token-123' }), 'add', { a: 1, b: 1 }, signal());
    expect(ok).toMatchObject({ ok: true, value: { output: '2' } });
    expect(locked.calls.at(-1)?.authorization).toBe('Bearer sekrit-token-123');
  });

  it('a server that is down is unreachable, with what to check', async () => {
    const down = await startTestMcpServer();
    await down.close();
    const listed = await createMcpClient({ policy: { appOrigin, allowHosts: [down.host] } }).listTools(target(down), signal());
    expect(listed).toMatchObject({ ok: false, error: { kind: 'http', status: 0 } });
    expect(!listed.ok && listed.error.message).toMatch(/could not be reached.*CORS/s);
  });
});
