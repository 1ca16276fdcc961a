/**
 * What passes validation is kept exactly and can be read back: a body at the nesting limit
 * round-trips through IndexedDB, `__proto__` in metadata is data, UTF-16 bodies are decoded
 * per their charset, and HEAD answers like GET without a body.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/protocol/request-limits';
import { closeAndCheck, localClient, type LocalClient } from '../support/local-client';
import { readSse } from '../../src/protocol/sse';

let local: LocalClient;
beforeEach(async () => {
  local = await localClient();
});
afterEach(() => closeAndCheck(local));

const json = { 'content-type': 'application/json' };
const post = (body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = json) => local.http('/v1/responses', { method: 'POST', body, headers });

/** A create body whose deepest value sits at exactly `depth` (body = 1, text = 2, format = 3, schema = 4). */
function bodyOfDepth(depth: number, extra = ''): string {
  const arrays = depth - 4;
  const schema = `{"x":${'['.repeat(arrays)}${']'.repeat(arrays)}}`;
  return `{"model":"test-scripted","input":"hi"${extra},"text":{"format":{"type":"json_schema","name":"deep","schema":${schema}}}}`;
}

test(`a body nested exactly ${MAX_JSON_DEPTH} levels is stored and reads back everywhere; one more level is a 400`, async () => {
  const res = await post(bodyOfDepth(MAX_JSON_DEPTH));
  expect(res.status).toBe(200);
  const created = (await res.json()) as { id: string; text: { format: { schema: unknown } } };
  const retrieved = await local.client.responses.retrieve(created.id);
  expect(retrieved.text?.format).toEqual(created.text.format);
  const next = await local.client.responses.create({ model: 'test-scripted', input: 'again', previous_response_id: created.id });
  expect(next.status).toBe('completed');

  // Background + stream: the schema is in every logged event's response, replayed from storage.
  const streamed = await post(bodyOfDepth(MAX_JSON_DEPTH, ',"background":true,"stream":true'));
  let id = '';
  for await (const message of readSse(streamed.body!)) if (!id) id = (JSON.parse(message.data) as { response: { id: string } }).response.id;
  const replay = await local.http(`/v1/responses/${id}?stream=true`);
  expect(replay.status).toBe(200);
  expect(await replay.text()).toContain('response.completed');

  const tooDeep = await post(bodyOfDepth(MAX_JSON_DEPTH + 1));
  expect(tooDeep.status).toBe(400);
  expect(await tooDeep.json()).toMatchObject({ error: { param: 'text.format.schema', code: 'nesting_above_max_depth' } });
});

test('metadata keys such as __proto__ and constructor are kept as data, in every answer', async () => {
  const metadata = '{"__proto__":"p","constructor":"c","toString":"t"}';
  const res = await post(`{"model":"test-scripted","input":"hi","metadata":${metadata},"background":true}`);
  expect(res.status).toBe(200);
  const { id, metadata: echoed } = JSON.parse(await res.text()) as { id: string; metadata: object };
  expect(Object.entries(echoed)).toEqual([['__proto__', 'p'], ['constructor', 'c'], ['toString', 't']]);
  while ((await local.client.responses.retrieve(id)).status !== 'completed') await new Promise((r) => setTimeout(r, 5));
  const stored = JSON.parse(await (await local.http(`/v1/responses/${id}`)).text()) as { metadata: object };
  expect(Object.entries(stored.metadata)).toEqual([['__proto__', 'p'], ['constructor', 'c'], ['toString', 't']]);

  const params = '{"type":"object","properties":{"a":{"type":"string"}},"__proto__":{"x":1}}';
  const tool = await post(`{"model":"test-scripted","input":"hi","tools":[{"type":"function","name":"f","parameters":${params}}]}`);
  const { tools } = JSON.parse(await tool.text()) as { tools: Array<{ parameters: object }> };
  expect(Object.keys(tools[0]!.parameters)).toEqual(['type', 'properties', '__proto__']);
});

test('a UTF-16 body is decoded per its charset or byte-order mark', async () => {
  const body = JSON.stringify({ model: 'test-scripted', input: 'héllo ✓ 𝄞' });
  const le = new Uint8Array(Buffer.from(body, 'utf16le'));
  const be = new Uint8Array(Buffer.from(body, 'utf16le').swap16());
  const bom = (bytes: Uint8Array, mark: number[]) => new Uint8Array([...mark, ...bytes]);
  for (const [bytes, charset] of [
    [le, 'utf-16le'],
    [be, 'utf-16be'],
    [bom(le, [0xff, 0xfe]), 'utf-16'],
    [bom(be, [0xfe, 0xff]), 'utf-16'],
  ] as const) {
    const res = await post(bytes, { 'content-type': `application/json; charset=${charset}` });
    expect(res.status, charset).toBe(200);
    expect(((await res.json()) as { output_text: string }).output_text).toBe('You said: héllo ✓ 𝄞');
  }
});

test('HEAD answers like GET, without a body', async () => {
  const { id } = await local.client.responses.create({ model: 'test-scripted', input: 'hi' });
  for (const path of ['/v1/models', `/v1/responses/${id}`, `/v1/responses/${id}/input_items`, '/v1/responses/resp_nope', '/v1/responses/%']) {
    const [get, head] = [await local.http(path), await local.http(path, { method: 'HEAD' })];
    expect(head.status, path).toBe(get.status);
    expect(head.headers.get('content-type'), path).toBe(get.headers.get('content-type'));
    expect(await head.text(), path).toBe('');
  }
  const post = await local.http('/v1/responses', { method: 'HEAD' });
  expect(post.status).toBe(405);
});
