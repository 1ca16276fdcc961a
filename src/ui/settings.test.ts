import { expect, test } from 'vitest';
import { DEFAULT_RETENTION } from '../protocol/runtime-options';
import { DEFAULT_SETTINGS, RETENTION_BYTES, RETENTION_DAYS, requestOptions } from './settings';

test("the app's default retention is the runtime's, and one of the offered choices", () => {
  expect(DEFAULT_SETTINGS.retention).toEqual(DEFAULT_RETENTION);
  expect(RETENTION_DAYS).toContain(DEFAULT_RETENTION.maxAgeDays);
  expect(RETENTION_BYTES).toContain(DEFAULT_RETENTION.maxBytes);
});

test('defaults send only the temperature', () => {
  expect(requestOptions(DEFAULT_SETTINGS)).toEqual({ temperature: 0.7 });
});

test('tools, outputs of the interpreter, limits, instructions and effort', () => {
  expect(
    requestOptions({ ...DEFAULT_SETTINGS, codeInterpreter: true, webSearch: true, maxOutputTokens: 256, instructions: 'Be brief.', reasoningEffort: 'low' }),
  ).toEqual({
    temperature: 0.7,
    max_output_tokens: 256,
    instructions: 'Be brief.',
    tools: [{ type: 'code_interpreter', container: { type: 'auto' } }, { type: 'web_search' }],
    include: ['code_interpreter_call.outputs', 'web_search_call.action.sources'],
    reasoning: { effort: 'low' },
  });
});

test('MCP servers from the settings become mcp tools (no token: none is stored)', () => {
  const tools = requestOptions({
    ...DEFAULT_SETTINGS,
    mcpServers: [{ label: 'calc', url: 'http://localhost:3000/mcp', allowedTools: ['add'], requireApproval: 'never' }],
  }).tools;
  expect(tools).toEqual([{ type: 'mcp', server_label: 'calc', server_url: 'http://localhost:3000/mcp', require_approval: 'never', allowed_tools: ['add'] }]);
});

test('a token of this tab goes with its server as authorization; only an own key counts', () => {
  const mcpServers = [
    { label: 'calc', url: 'http://localhost:3000/mcp', allowedTools: [], requireApproval: 'always' as const },
    { label: 'constructor', url: 'https://e.x/mcp', allowedTools: [], requireApproval: 'always' as const },
  ];
  const { tools } = requestOptions({ ...DEFAULT_SETTINGS, mcpServers }, { calc: 's3cret' });
  expect(tools).toEqual([
    { type: 'mcp', server_label: 'calc', server_url: 'http://localhost:3000/mcp', require_approval: 'always', authorization: 's3cret' },
    { type: 'mcp', server_label: 'constructor', server_url: 'https://e.x/mcp', require_approval: 'always' },
  ]);
});
