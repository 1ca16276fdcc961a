import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ResponseOutputItem } from 'openai/resources/responses/responses';
import { describe, expect, test } from 'vitest';
import { newTurn } from '../saved-chat';
import { Answer } from './answer';
import { McpApprovalCard, McpCallCard, McpListToolsCard } from './mcp-cards';

const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>';

describe('McpCallCard', () => {
  test('shows server, tool, arguments and output; the output is text, never HTML', () => {
    const call: ResponseOutputItem.McpCall = { type: 'mcp_call', id: 'mcp_1', server_label: 'calc', name: 'add', arguments: '{"a":20,"b":22}', status: 'completed', output: hostile };
    const html = renderToStaticMarkup(createElement(McpCallCard, { call }));
    expect(html).toContain('aria-label="MCP call add on calc"');
    expect(html).toContain('&quot;a&quot;: 20'); // pretty-printed arguments
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
  });

  test('a failed call says why (our error object, or another server’s string)', () => {
    const base = { type: 'mcp_call', id: 'mcp_1', server_label: 'calc', name: 'add', arguments: '{}', status: 'failed' } as const;
    const http = renderToStaticMarkup(createElement(McpCallCard, { call: { ...base, error: { type: 'http_error', code: 401, message: 'Send a valid token.' } } }));
    expect(http).toContain('Send a valid token.');
    expect(http).toContain('Failed');
    const text = renderToStaticMarkup(createElement(McpCallCard, { call: { ...base, error: 'boom' as never } }));
    expect(text).toContain('boom');
  });
});

test('McpListToolsCard lists the tools, or the listing error', () => {
  const item: ResponseOutputItem.McpListTools = { type: 'mcp_list_tools', id: 'l', server_label: 'calc', tools: [{ name: 'add', description: hostile, input_schema: {} }] };
  const html = renderToStaticMarkup(createElement(McpListToolsCard, { item, busy: false }));
  expect(html).toContain('1 tool');
  expect(html).toContain('<code>add</code>');
  expect(html).not.toContain('<img');
  expect(renderToStaticMarkup(createElement(McpListToolsCard, { item: { ...item, tools: [], error: 'CORS or down' }, busy: false }))).toContain('CORS or down');
});

describe('McpApprovalCard', () => {
  const request: ResponseOutputItem.McpApprovalRequest = { type: 'mcp_approval_request', id: 'mcpr_1', server_label: 'calc', name: 'add', arguments: '{"a":1}' };

  test('an open request shows server, tool, arguments and Approve / Deny with accessible names', () => {
    const html = renderToStaticMarkup(createElement(McpApprovalCard, { request, decision: undefined, onDecide: () => {} }));
    expect(html).toContain('Run <code>add</code> on calc?');
    expect(html).toContain('&quot;a&quot;: 1');
    expect(html).toContain('aria-label="Approve add on calc"');
    expect(html).toContain('aria-label="Deny add on calc"');
    expect(html).toContain('data-decision="pending"');
  });

  test('an answered request shows the decision and no buttons', () => {
    const html = renderToStaticMarkup(createElement(McpApprovalCard, { request, decision: false, onDecide: () => {} }));
    expect(html).toContain('Denied');
    expect(html).not.toContain('<button');
  });

  test('in an answer: buttons only where the request can be answered, disabled while another answer runs', () => {
    const turn = { ...newTurn('hi', 'm', 0), status: 'completed' as const, output: [request] };
    const last = renderToStaticMarkup(createElement(Answer, { turn, approvals: { decisions: new Map(), onDecide: () => {}, disabled: true } }));
    expect(last).toMatch(/<button[^>]*disabled=""[^>]*aria-label="Approve add on calc"/);
    const earlier = renderToStaticMarkup(createElement(Answer, { turn, approvals: { decisions: new Map() } }));
    expect(earlier).not.toContain('<button');
    expect(earlier).toContain('Not answered');
    const answered = renderToStaticMarkup(createElement(Answer, { turn, approvals: { decisions: new Map([['mcpr_1', true]]) } }));
    expect(answered).toContain('Approved');
  });
});
