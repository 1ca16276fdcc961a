/**
 * Generated malformed `POST /v1/responses` bodies (seeded, so every run sends the same ones):
 * wrong types at every field, deep nesting, huge arrays, invalid UTF-8, prototype keys,
 * truncated JSON, non-object bodies, wrong content types, oversized bodies. Every answer is a
 * 4xx in OpenAI's error shape, nothing is stored, and the next valid request still works.
 */
import { openDB } from 'idb';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/protocol/request-limits';
import { closeAndCheck, localClient, type LocalClient } from '../support/local-client';

/** mulberry32: a tiny seeded PRNG, so a failure names a case that replays exactly. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(12);
const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;

/** A valid body that uses nearly every field (checked to succeed first); `store` defaults to true. */
const base = {
  model: 'test-scripted',
  input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
  instructions: 'be brief',
  temperature: 0.5,
  top_p: 0.9,
  max_output_tokens: 64,
  max_tool_calls: 2,
  metadata: { k: 'v' },
  tools: [{ type: 'function', name: 'f', description: 'd', parameters: { type: 'object', properties: {} }, strict: false }],
  tool_choice: 'auto',
  parallel_tool_calls: true,
  text: { format: { type: 'json_schema', name: 's', schema: { type: 'object' }, strict: false }, verbosity: 'medium' },
  reasoning: { effort: 'low' },
  truncation: 'disabled',
  include: ['code_interpreter_call.outputs'],
  user: 'u',
  safety_identifier: 's',
  prompt_cache_key: 'p',
  stream: false,
  background: false,
  service_tier: 'auto',
};
type Path = Array<string | number>;
const FREE_FORM = ['tools.0.parameters', 'text.format.schema'];
const clone = (): Record<string, unknown> => JSON.parse(JSON.stringify(base)) as Record<string, unknown>;

function at(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], root);
}
function setAt(root: unknown, path: Path, value: unknown): void {
  const parent = at(root, path.slice(0, -1)) as Record<string | number, unknown>;
  Object.defineProperty(parent, path.at(-1)!, { value, enumerable: true, writable: true, configurable: true });
}
/** Every field of `base` (containers too), but not inside the free-form JSON a client owns. */
function fields(value: unknown, path: Path = []): Path[] {
  if (FREE_FORM.includes(path.join('.')) || value === null || typeof value !== 'object') return path.length ? [path] : [];
  const own = Object.entries(value).flatMap(([k, v]) => fields(v, [...path, Array.isArray(value) ? Number(k) : k]));
  return path.length ? [path, ...own] : own;
}
/** Values of a JSON type the field does not take (strings are never tried on arrays: `input`/`content` take them). */
function wrongTypes(value: unknown): unknown[] {
  if (typeof value === 'string') return [int(-5, 5), rand() < 0.5, {}, []];
  if (typeof value === 'number') return [String(value), true, { n: value }, [value]];
  if (typeof value === 'boolean') return [Number(value), String(value), {}, [value]];
  if (Array.isArray(value)) return [int(0, 9), false, { 0: value[0] }];
  return ['x', int(0, 9), true, [value]];
}

interface Case {
  name: string;
  body: string | Uint8Array<ArrayBuffer>;
  contentType?: string;
}
const cases: Case[] = [];
const add = (name: string, body: unknown, contentType?: string) =>
  cases.push({ name, body: typeof body === 'string' || body instanceof Uint8Array ? (body as string | Uint8Array<ArrayBuffer>) : JSON.stringify(body), ...(contentType !== undefined ? { contentType } : {}) });

// Wrong types at every field.
for (const path of fields(base))
  for (const wrong of wrongTypes(at(base, path))) {
    const body = clone();
    setAt(body, path, wrong);
    add(`wrong type at ${path.join('.')}: ${JSON.stringify(wrong)}`, body);
  }

// Deep nesting, as text (JSON.stringify overflows on it), at places that take objects or not.
const DEEP_AT: Path[] = [['text', 'format', 'schema', 'x'], ['tools', 0, 'parameters', 'properties'], ['input', 0, 'content', 0], ['metadata'], ['instructions'], ['zz'], ['input']];
for (let i = 0; i < 40; i++) {
  const path = pick(DEEP_AT);
  const depth = int(70, 60_000);
  const deep = rand() < 0.5 ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  const body = clone();
  setAt(body, path, '@DEEP@');
  add(`${depth} levels at ${path.join('.')}`, JSON.stringify(body).replace('"@DEEP@"', deep));
}

// Huge arrays and objects.
const fn = (i: number) => ({ type: 'function', name: `f${i}` });
for (let i = 0; i < 30; i++) {
  const n = int(129, 20_000);
  const body = clone();
  const kind = i % 5;
  if (kind === 0) body.tools = Array.from({ length: n }, (_, j) => fn(j));
  if (kind === 1) body.include = Array.from({ length: n * 5 }, (_, j) => `x${j}`);
  if (kind === 2) body.input = Array.from({ length: n * 5 }, (_, j) => j);
  if (kind === 3) body.metadata = Object.fromEntries(Array.from({ length: n }, (_, j) => [`k${j}`, 'v']));
  if (kind === 4) body.tools = Array.from({ length: n }, () => ({ type: 'teleport' }));
  add(`huge ${['tools', 'include', 'input', 'metadata', 'bad tools'][kind]} (${n})`, body);
}

// Invalid UTF-8 spliced into the bytes of a valid body.
const BAD_UTF8 = [[0xff], [0xfe], [0x80], [0xc3], [0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]];
for (let i = 0; i < 40; i++) {
  const bytes = new TextEncoder().encode(JSON.stringify(base));
  const quotes = [...bytes.keys()].filter((k) => bytes[k] === 0x22);
  const pos = rand() < 0.7 ? pick(quotes) + 1 : int(0, bytes.length);
  const bad = pick(BAD_UTF8);
  add(`bytes ${bad.map((b) => b.toString(16)).join(' ')} at ${pos}`, new Uint8Array([...bytes.slice(0, pos), ...bad, ...bytes.slice(pos)]));
}

// Prototype keys where the schema is strict, and as metadata keys with values that are not strings.
const STRICT_AT: Path[] = [[], ['input', 0], ['input', 0, 'content', 0], ['tools', 0], ['text'], ['text', 'format'], ['reasoning']];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__'];
for (let i = 0; i < 40; i++) {
  const body = clone();
  const key = pick(PROTO_KEYS);
  const inMetadata = i % 4 === 0;
  const path: Path = inMetadata ? ['metadata', key] : [...pick(STRICT_AT), key];
  setAt(body, path, pick([{ polluted: true }, [1], 1, null, true, ...(inMetadata ? [] : ['x'])]));
  add(`prototype key ${path.join('.')}`, body);
}

// Truncated JSON: a strict prefix of an object is never valid JSON.
const full = JSON.stringify(base);
for (let i = 0; i < 30; i++) add(`truncated at ${i === 0 ? 0 : int(1, full.length - 1)}`, full.slice(0, i === 0 ? 0 : int(1, full.length - 1)));

// Bodies that are JSON but not an object, and the wrong content types or charsets.
for (const body of ['1', '"x"', 'null', 'true', '[]', `[${full}]`, '-0', '1e999', '""', '{}']) add(`body ${body.slice(0, 20)}`, body);
for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', '', 'application/jsonx', 'application/json; charset=latin1', 'application/json; charset=utf-7', 'application/json; charset=bogus', 'json', 'application/json;charset=gbk'])
  add(`content-type '${type}'`, full, type);

// Over the size limit.
for (const extra of [1, 1000, MAX_BODY_BYTES]) add(`body ${extra} bytes over the limit`, JSON.stringify({ ...base, instructions: 'x'.repeat(MAX_BODY_BYTES + extra) }));

let local: LocalClient;
beforeAll(async () => {
  local = await localClient();
});
afterAll(() => closeAndCheck(local));

const valid = { model: 'test-scripted', input: 'still fine?', store: false };

test('the base body is valid (so each case is malformed by its one change)', async () => {
  const res = await local.http('/v1/responses', { method: 'POST', body: JSON.stringify({ ...base, store: false }), headers: { 'content-type': 'application/json' } });
  expect(res.status).toBe(200);
  expect(cases.length).toBeGreaterThanOrEqual(300);
});

test('every malformed body gets a 4xx in the OpenAI error shape, and the next valid request works', async () => {
  const wrong: string[] = [];
  for (const c of cases) {
    const res = await local.http('/v1/responses', { method: 'POST', body: c.body, headers: c.contentType === '' ? {} : { 'content-type': c.contentType ?? 'application/json' } });
    const text = await res.text();
    let error: Record<string, unknown> | undefined;
    try {
      const parsed = JSON.parse(text) as { error?: Record<string, unknown> };
      if (Object.keys(parsed).join() === 'error') error = parsed.error;
    } catch {
      // not JSON: reported below
    }
    const shaped =
      error &&
      Object.keys(error).sort().join() === 'code,message,param,type' &&
      error.type === 'invalid_request_error' &&
      typeof error.message === 'string' &&
      error.message.length > 10 &&
      (error.param === null || typeof error.param === 'string') &&
      (error.code === null || typeof error.code === 'string');
    if (res.status < 400 || res.status >= 500 || !shaped) wrong.push(`${c.name}: ${res.status} ${text.slice(0, 200)}`);
    const next = await local.client.responses.create(valid);
    if (next.status !== 'completed') wrong.push(`${c.name}: the next valid request ended ${next.status}`);
  }
  expect(wrong, `${wrong.length} of ${cases.length} answers were wrong`).toEqual([]);

  const db = await openDB(local.dbName);
  expect([await db.count('responses'), await db.count('items'), await db.count('events')]).toEqual([0, 0, 0]);
  db.close();
}, 240_000);
