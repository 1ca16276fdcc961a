import { describe, expect, test } from 'vitest';
import { McpTool } from '../protocol/create-request';
import { parseMcpServerFields, SERVER_LABEL, type McpServerFields } from './mcp-server-form';

const fields = (patch: Partial<McpServerFields> = {}): McpServerFields => ({
  label: 'calc',
  url: 'http://localhost:3000/mcp',
  token: '',
  tools: '',
  requireApproval: 'always',
  ...patch,
});

describe('parseMcpServerFields', () => {
  test('a valid server: trimmed, tool names split on commas (no blanks, no repeats), the token apart', () => {
    const result = parseMcpServerFields(fields({ label: ' calc ', tools: 'add, mul,,add ', token: ' secret ', requireApproval: 'never' }), []);
    expect(result).toEqual({
      ok: true,
      server: { label: 'calc', url: 'http://localhost:3000/mcp', allowedTools: ['add', 'mul'], requireApproval: 'never' },
      token: 'secret',
    });
  });

  test('labels the server would refuse, and a label already used, are refused at the label field', () => {
    for (const label of ['', '1calc', 'has space', 'a'.repeat(49)]) expect(parseMcpServerFields(fields({ label }), [])).toMatchObject({ ok: false, field: 'label' });
    const existing = [{ label: 'calc', url: 'http://a/', allowedTools: [], requireApproval: 'always' as const }];
    expect(parseMcpServerFields(fields(), existing)).toMatchObject({ ok: false, field: 'label', message: 'There is already a server named calc.' });
  });

  test('a URL must be a full http(s) address', () => {
    for (const url of ['localhost:3000', 'nope', 'ftp://x/', 'javascript:alert(1)']) expect(parseMcpServerFields(fields({ url }), [])).toMatchObject({ ok: false, field: 'url' });
  });

  test('the label rule is the create request’s', () => {
    for (const label of ['calc', 'a-b_c', 'A'.repeat(48), '1x', 'x y', 'A'.repeat(49), 'é'])
      expect(SERVER_LABEL.test(label), label).toBe(McpTool.shape.server_label.safeParse(label).success);
  });
});
