/** Bad input gets a 4xx in OpenAI's error shape, naming the parameter, and nothing is stored. */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { closeAndCheck, localClient, type LocalClient } from '../support/local-client';

let local: LocalClient;
beforeEach(async () => {
  local = await localClient();
});
afterEach(() => closeAndCheck(local));

interface Case {
  name: string;
  body?: unknown;
  raw?: { body: string | Uint8Array<ArrayBuffer>; contentType?: string; method?: string; path?: string };
  status: number;
  param?: string | null;
  code?: string | null;
  message?: RegExp;
}

const ok = { model: 'test-scripted', input: 'hi' };
const tooManyKeys = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v']));
/** A JSON schema `levels` objects deep, as text (JSON.stringify itself overflows on deep values). */
const deepSchema = (levels: number) => '{"type":"object","properties":{"a":'.repeat(levels) + '{"type":"string"}' + '}}'.repeat(levels);
const withSchema = (schema: string) => `{"model":"test-scripted","input":"hi","text":{"format":{"type":"json_schema","name":"x","schema":${schema}}}}`;
const fn = (i: number) => ({ type: 'function', name: `f${i}` });
const utf8 = (text: string) => new TextEncoder().encode(text);

const cases: Case[] = [
  { name: 'invalid JSON', raw: { body: '{"model": "test-scripted",' }, status: 400, code: 'invalid_json', message: /not valid JSON/ },
  { name: 'wrong content type', raw: { body: JSON.stringify(ok), contentType: 'text/plain' }, status: 400, code: 'invalid_content_type' },
  { name: 'body is an array', body: [ok], status: 400, code: 'invalid_type' },
  { name: 'missing model', body: { input: 'hi' }, status: 400, param: 'model', code: 'missing_required_parameter' },
  { name: 'model is a number', body: { model: 7, input: 'hi' }, status: 400, param: 'model', code: 'invalid_type' },
  { name: 'unknown model', body: { model: 'gpt-9', input: 'hi' }, status: 404, param: 'model', code: 'model_not_found' },
  { name: 'missing input', body: { model: 'test-scripted' }, status: 400, param: 'input', code: 'missing_required_parameter' },
  { name: 'input is a number', body: { model: 'test-scripted', input: 5 }, status: 400, param: 'input' },
  { name: 'unknown top-level field', body: { ...ok, frobnicate: true }, status: 400, param: 'frobnicate', code: 'unknown_parameter' },
  { name: 'temperature as a string', body: { ...ok, temperature: 'hot' }, status: 400, param: 'temperature', code: 'invalid_type' },
  { name: 'temperature above 2', body: { ...ok, temperature: 3 }, status: 400, param: 'temperature', code: 'integer_above_max_value' },
  { name: 'top_p below 0', body: { ...ok, top_p: -0.5 }, status: 400, param: 'top_p', code: 'decimal_below_min_value' },
  { name: 'negative max_output_tokens', body: { ...ok, max_output_tokens: -1 }, status: 400, param: 'max_output_tokens' },
  { name: 'max_output_tokens below 16', body: { ...ok, max_output_tokens: 5 }, status: 400, param: 'max_output_tokens', message: />= 16/ },
  { name: 'fractional max_output_tokens', body: { ...ok, max_output_tokens: 20.5 }, status: 400, param: 'max_output_tokens' },
  { name: 'metadata with 17 keys', body: { ...ok, metadata: tooManyKeys }, status: 400, param: 'metadata', code: 'object_above_max_properties' },
  { name: 'metadata value too long', body: { ...ok, metadata: { k: 'x'.repeat(513) } }, status: 400, param: 'metadata.k', code: 'string_above_max_length' },
  { name: 'metadata value not a string', body: { ...ok, metadata: { k: 1 } }, status: 400, param: 'metadata.k', code: 'invalid_type' },
  { name: 'unsupported tool type', body: { ...ok, tools: [{ type: 'image_generation' }] }, status: 400, param: 'tools[0].type', message: /image_generation tool is not available in the local runtime/ },
  { name: 'file_search in a runtime without files', body: { ...ok, tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }] }, status: 400, param: 'tools[0].type', code: 'unsupported_tool' },
  { name: 'function tool without name', body: { ...ok, tools: [{ type: 'function', parameters: {} }] }, status: 400, param: 'tools[0].name' },
  { name: 'function tool with a bad name', body: { ...ok, tools: [{ type: 'function', name: 'has space' }] }, status: 400, param: 'tools[0].name' },
  { name: 'tool_choice names a missing function', body: { ...ok, tool_choice: { type: 'function', name: 'nope' } }, status: 400, param: 'tool_choice' },
  { name: "tool_choice 'required' without tools", body: { ...ok, tool_choice: 'required' }, status: 400, param: 'tool_choice' },
  { name: 'tool_choice bogus string', body: { ...ok, tool_choice: 'sometimes' }, status: 400, param: 'tool_choice' },
  { name: 'unknown input item type', body: { model: 'test-scripted', input: [{ type: 'teleport' }] }, status: 400, param: 'input[0].type' },
  { name: 'message with a bad role', body: { model: 'test-scripted', input: [{ role: 'wizard', content: 'x' }] }, status: 400, param: 'input[0].role' },
  { name: 'output_text in a user message', body: { model: 'test-scripted', input: [{ role: 'user', content: [{ type: 'output_text', text: 'x' }] }] }, status: 400, param: 'input[0].content[0].type' },
  { name: 'function_call_output without call_id', body: { model: 'test-scripted', input: [{ type: 'function_call_output', output: 'x' }] }, status: 400, param: 'input[0].call_id' },
  { name: 'unknown previous_response_id', body: { ...ok, previous_response_id: 'resp_404' }, status: 404, param: 'previous_response_id', code: 'previous_response_not_found' },
  { name: 'unknown item_reference', body: { model: 'test-scripted', input: [{ type: 'item_reference', id: 'msg_404' }] }, status: 404, param: 'input[0].id' },
  { name: 'background with store false', body: { ...ok, background: true, store: false }, status: 400, param: 'background' },
  { name: 'stream is a string', body: { ...ok, stream: 'yes' }, status: 400, param: 'stream', code: 'invalid_type' },
  { name: 'code_interpreter memory_limit (not enforceable in a browser)', body: { ...ok, tools: [{ type: 'code_interpreter', container: { type: 'auto', memory_limit: '4g' } }] }, status: 400, param: 'tools[0].container.memory_limit', code: 'unsupported_parameter' },
  { name: 'unknown reasoning summary', body: { ...ok, reasoning: { summary: 'verbose' } }, status: 400, param: 'reasoning.summary', code: 'invalid_value' },
  { name: 'unknown truncation', body: { ...ok, truncation: 'sometimes' }, status: 400, param: 'truncation' },
  { name: 'unknown verbosity', body: { ...ok, text: { verbosity: 'chatty' } }, status: 400, param: 'text.verbosity' },
  { name: 'unsupported include value', body: { ...ok, include: ['message.input_image.image_url'] }, status: 400, param: 'include[0]' },
  {
    name: 'allowed tool not in tools',
    body: { ...ok, tools: [{ type: 'function', name: 'a' }], tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'b' }] } },
    status: 400,
    param: 'tool_choice.tools[0]',
    code: 'invalid_value',
  },
  { name: 'unknown conversation', body: { ...ok, conversation: 'conv_1' }, status: 404, param: 'conversation' },
  { name: 'conversation is a number', body: { ...ok, conversation: 7 }, status: 400, param: 'conversation', code: 'invalid_value' },
  { name: 'conversation object with extra keys', body: { ...ok, conversation: { id: 'conv_1', x: 1 } }, status: 400, code: 'unknown_parameter' },
  { name: 'json_schema format without schema', body: { ...ok, text: { format: { type: 'json_schema', name: 'x' } } }, status: 400, param: 'text.format.schema' },
  { name: 'prompt longer than the context window', body: { model: 'test-scripted', input: 'x'.repeat(140_000) }, status: 400, param: 'input', code: 'context_length_exceeded' },
  // Limits (docs/api.md "Limits"): nested too deep, too many tools, too big; each names the parameter.
  { name: 'json_schema nested 1,265 levels', raw: { body: withSchema(deepSchema(1265)) }, status: 400, param: 'text.format.schema', code: 'nesting_above_max_depth', message: /at most 64 levels/ },
  { name: 'json_schema nested 10,000 levels', raw: { body: withSchema(deepSchema(10_000)) }, status: 400, param: 'text.format.schema', code: 'nesting_above_max_depth' },
  { name: 'function parameters nested 10,000 levels', raw: { body: `{"model":"test-scripted","input":"hi","tools":[{"type":"function","name":"f","parameters":${deepSchema(10_000)}}]}` }, status: 400, param: 'tools[0].parameters', code: 'nesting_above_max_depth' },
  { name: 'arrays nested 100,000 levels in input', raw: { body: `{"model":"test-scripted","input":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}` }, status: 400, param: 'input[0]', code: 'nesting_above_max_depth' },
  { name: '129 tools', body: { ...ok, tools: Array.from({ length: 129 }, (_, i) => fn(i)) }, status: 400, param: 'tools', code: 'array_above_max_length', message: /maximum length 128/ },
  { name: 'body over 16 MiB', raw: { body: JSON.stringify({ ...ok, instructions: 'x'.repeat(16 * 1024 * 1024) }) }, status: 413, code: 'request_too_large', message: /at most 16777216 bytes/ },
  // Bytes that are not text in the declared charset are refused, never decoded into something else.
  { name: 'invalid UTF-8 in a key', raw: { body: new Uint8Array([...utf8('{"mo'), 0xff, ...utf8('del":"test-scripted","input":"hi"}')]) }, status: 400, code: 'invalid_json', message: /not valid UTF-8/ },
  { name: 'a lone surrogate encoded as UTF-8', raw: { body: new Uint8Array([...utf8('{"model":"test-scripted","input":"'), 0xed, 0xa0, 0x80, ...utf8('"}')]) }, status: 400, code: 'invalid_json' },
  { name: 'unsupported charset', raw: { body: JSON.stringify(ok), contentType: 'application/json; charset=shift_jis' }, status: 400, code: 'invalid_content_type', message: /Unsupported charset 'shift_jis'/ },
  { name: 'unknown charset', raw: { body: JSON.stringify(ok), contentType: 'application/json; charset=bogus' }, status: 400, code: 'invalid_content_type' },
  // `__proto__` is a key like any other: checked, not skipped.
  { name: 'metadata __proto__ not a string', raw: { body: '{"model":"test-scripted","input":"hi","metadata":{"__proto__":{"x":1}}}' }, status: 400, param: 'metadata.__proto__', code: 'invalid_type' },
  { name: 'metadata key over 64 characters', body: { ...ok, metadata: { ['k'.repeat(65)]: 'v' } }, status: 400, param: 'metadata' },
  { name: '__proto__ at the top level', raw: { body: '{"model":"test-scripted","input":"hi","__proto__":{"stream":true}}' }, status: 400, param: '__proto__', code: 'unknown_parameter' },
  // A malformed percent-escape in a path names an id that cannot exist: 404, never a 500.
  { name: 'retrieve %', raw: { body: '', method: 'GET', path: '/v1/responses/%' }, status: 404 },
  { name: 'retrieve %ZZ', raw: { body: '', method: 'GET', path: '/v1/responses/%ZZ' }, status: 404 },
  { name: 'delete %', raw: { body: '', method: 'DELETE', path: '/v1/responses/%' }, status: 404 },
  { name: 'cancel %E0%A4%A', raw: { body: '', method: 'POST', path: '/v1/responses/%E0%A4%A/cancel' }, status: 404 },
  { name: 'input_items of %', raw: { body: '', method: 'GET', path: '/v1/responses/%/input_items' }, status: 404 },
  { name: 'model %', raw: { body: '', method: 'GET', path: '/v1/models/%' }, status: 404 },
  { name: 'unknown route', raw: { body: '', method: 'GET', path: '/v1/frobs' }, status: 404, code: 'unknown_url' },
  { name: 'wrong method', raw: { body: '', method: 'PUT', path: '/v1/responses' }, status: 405 },
  // An endpoint we do not have under /v1/responses/ is an unknown URL, not a wrong method on a response id.
  { name: 'unknown responses sub-path', raw: { body: JSON.stringify(ok), method: 'POST', path: '/v1/responses/summarize' }, status: 404, code: 'unknown_url' },
  { name: 'retrieve unknown id', raw: { body: '', method: 'GET', path: '/v1/responses/resp_nope' }, status: 404 },
  { name: 'cancel unknown id', raw: { body: '', method: 'POST', path: '/v1/responses/resp_nope/cancel' }, status: 404 },
  { name: 'input_items limit 0', raw: { body: '', method: 'GET', path: '/v1/responses/resp_nope/input_items?limit=0' }, status: 400, param: 'limit' },
  { name: 'input_items bad order', raw: { body: '', method: 'GET', path: '/v1/responses/resp_nope/input_items?order=up' }, status: 400, param: 'order' },
];

test.each(cases)('$name → $status', async (c) => {
  const method = c.raw?.method ?? 'POST';
  const init: RequestInit = { method };
  if (method !== 'GET') {
    init.body = c.raw ? c.raw.body : JSON.stringify(c.body);
    init.headers = { 'content-type': c.raw?.contentType ?? 'application/json' };
  }
  const res = await local.http(c.raw?.path ?? '/v1/responses', init);
  expect(res.status).toBe(c.status);
  const body = (await res.json()) as { error: { message: string; type: string; param: string | null; code: string | null } };
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  expect(body.error.type).toBe('invalid_request_error');
  expect(body.error.message.length).toBeGreaterThan(10);
  if (c.param !== undefined) expect(body.error.param).toBe(c.param);
  if (c.code !== undefined) expect(body.error.code).toBe(c.code);
  if (c.message) expect(body.error.message).toMatch(c.message);
});

test('nothing is stored by rejected requests', async () => {
  for (const c of cases.filter((c) => c.body !== undefined)) {
    await local.http('/v1/responses', { method: 'POST', body: JSON.stringify(c.body), headers: { 'content-type': 'application/json' } });
  }
  // A fresh database holds nothing at all after every rejected create.
  const { openDB } = await import('idb');
  const db = await openDB(local.dbName);
  expect(await db.count('responses')).toBe(0);
  expect(await db.count('items')).toBe(0);
  expect(await db.count('events')).toBe(0);
  db.close();
});

test('the SDK surfaces the error as an APIError with status, param and code', async () => {
  await expect(local.client.responses.create({ model: 'test-scripted', input: 'x', temperature: 9 })).rejects.toMatchObject({
    status: 400,
    param: 'temperature',
    code: 'integer_above_max_value',
    type: 'invalid_request_error',
  });
});
