/**
 * What goes wrong with an upstream, and what a person is told: each failure ends the
 * response `failed` with an error naming the provider (or is the create's HTTP error when
 * nothing was stored yet), keeps what was streamed so far, and never shows the key. Cancel
 * closes the upstream connection at once. The upstream is scripted (test/fakes/fake-upstream.ts).
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { startFakeUpstream, type FakeUpstream } from '../fakes/fake-upstream';
import { closeAndCheck, type LocalClient } from '../support/local-client';
import { addProvider, providerClient } from '../support/provider-client';

const KEY = 'sk-secret-abcdefghijklmnop-9876';

let upstream: FakeUpstream;
let local: LocalClient;
beforeEach(async () => {
  upstream = await startFakeUpstream();
});
afterEach(async () => {
  await closeAndCheck(local);
  await upstream.close();
});

async function setup(extra: Record<string, unknown> = {}, options: Parameters<typeof providerClient>[0] = {}) {
  local = await providerClient(options);
  expect((await addProvider(local, { id: 'lab', base_url: upstream.baseUrl, models: ['tiny'], ...extra })).status).toBe(200);
}

async function streamed(body: Record<string, unknown>): Promise<ResponseStreamEvent[]> {
  const events: ResponseStreamEvent[] = [];
  const stream = await local.client.responses.create({ model: 'lab/tiny', input: 'Hi', stream: true, ...body } as never);
  for await (const e of stream as unknown as AsyncIterable<ResponseStreamEvent>) events.push(e);
  return events;
}

function failedOf(events: ResponseStreamEvent[]) {
  const last = events.at(-1);
  expect(last?.type).toBe('response.failed');
  return (last as Extract<ResponseStreamEvent, { type: 'response.failed' }>).response;
}

test('429: failed with rate_limit_exceeded, the upstream’s message and when to try again', async () => {
  await setup();
  upstream.reply = () => ({ kind: 'error', status: 429, headers: { 'retry-after': '7' }, body: { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } } });
  const response = await local.client.responses.create({ model: 'lab/tiny', input: 'Hi' });
  expect(response.status).toBe('failed');
  expect(response.error).toMatchObject({ code: 'rate_limit_exceeded' });
  expect(response.error?.message).toBe("Provider 'lab' is limiting requests (429): Rate limit reached for requests. Try again in 7 s.");
});

test('a stream that breaks mid-answer: failed, the text so far kept (in the stored response too)', async () => {
  await setup();
  upstream.reply = () => ({ kind: 'break', pieces: ['Once ', 'upon ', 'a'] });
  const failed = failedOf(await streamed({}));
  expect(failed.error?.message).toMatch(/^Provider 'lab': its stream (broke off mid-answer|ended before the answer did).*kept/);
  expect(failed.output_text).toBe('Once upon a');
  expect(failed.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
  const stored = await local.client.responses.retrieve(failed.id);
  expect(stored).toMatchObject({ status: 'failed', output_text: 'Once upon a' });
});

test('an upstream that sends nothing for the idle limit, before or after its headers: failed, saying so; its connection closed', async () => {
  await setup({}, { idleTimeoutMs: 300 });
  for (const headersFirst of [true, false]) {
    upstream.reply = () => ({ kind: 'silence', headersFirst });
    const failed = failedOf(await streamed({}));
    expect(failed.error?.message, `headers first: ${headersFirst}`).toMatch(/^Provider 'lab': its server sent nothing for 0 s/);
    await expect.poll(() => upstream.requests.at(-1)?.closedEarly).toBe(true);
  }
});

test('no finish reason, an unknown one, an error chunk mid-stream, bytes that are not JSON: failed, each saying what happened', async () => {
  await setup();
  const cases: Array<[() => import('../fakes/fake-upstream').Reply, RegExp]> = [
    [() => ({ kind: 'chat', pieces: ['partial'], finish: null, usage: null, done: false }), /ended before the answer did/],
    [() => ({ kind: 'chat', pieces: ['x'], finish: 'abort' }), /stopped the answer \(finish_reason "abort"\)/],
    [() => ({ kind: 'raw', body: 'data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\n\ndata: {"error":{"code":500,"message":"slot crashed","type":"server_error"}}\n\n' }), /failed mid-answer: slot crashed/],
    [() => ({ kind: 'raw', body: 'data: <html>\n\n' }), /not JSON/],
  ];
  for (const [reply, message] of cases) {
    upstream.reply = reply;
    const response = await local.client.responses.create({ model: 'lab/tiny', input: 'Hi' });
    expect(response.status).toBe('failed');
    expect(response.error?.message).toMatch(message);
  }
});

test('the context is too long upstream: failed naming context_length_exceeded; a window the provider was given refuses it before anything is stored', async () => {
  await setup();
  upstream.reply = () => ({ kind: 'error', status: 400, body: { error: { code: 400, message: 'request (9000 tokens) exceeds the available context size (2048 tokens), try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 9000, n_ctx: 2048 } } });
  const response = await local.client.responses.create({ model: 'lab/tiny', input: 'Hi' });
  expect(response.status).toBe('failed');
  expect(response.error?.message).toMatch(/^Provider 'lab': the input does not fit the model's context window \(context_length_exceeded\): request \(9000 tokens\) exceeds/);

  await addProvider(local, { id: 'small', base_url: upstream.baseUrl, models: ['tiny'], context_window: 50 });
  const before = upstream.requests.length;
  await expect(local.client.responses.create({ model: 'small/tiny', input: 'word '.repeat(200) })).rejects.toMatchObject({ status: 400, code: 'context_length_exceeded' });
  expect(upstream.requests.length).toBe(before);
});

test('a refused key: failed, the upstream’s message passed on with the key it echoed blanked; the key is nowhere in what is stored', async () => {
  await upstream.close();
  upstream = await startFakeUpstream({ apiKey: 'the-right-one' });
  await setup({ api_key: KEY });
  const events = await streamed({ background: true });
  const failed = failedOf(events);
  expect(failed.error?.message).toMatch(/^Provider 'lab' refused the request \(401\): Incorrect API key provided: \[redacted\]\. Check its API key/);
  const everything = JSON.stringify([events, await local.client.responses.retrieve(failed.id), await (await local.http(`/v1/responses/${failed.id}?stream=true`)).text()]);
  expect(everything).not.toContain(KEY);
  expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
});

test('cancel aborts the upstream request at once; the response ends cancelled', async () => {
  await setup();
  upstream.reply = () => ({ kind: 'chat', pieces: Array.from({ length: 200 }, () => 'tick '), delayMs: 20 });
  const started = await local.client.responses.create({ model: 'lab/tiny', input: 'Hi', background: true });
  await expect.poll(() => upstream.requests.some((r) => r.method === 'POST')).toBe(true);
  await new Promise((r) => setTimeout(r, 100));
  const cancelled = await local.client.responses.cancel(started.id);
  expect(cancelled.status).toBe('cancelled');
  await expect.poll(() => upstream.requests.at(-1)?.closedEarly, { timeout: 1000 }).toBe(true);
});

test('a redirect is refused: the key and the conversation go to the provider’s origin only', async () => {
  const elsewhere = await startFakeUpstream();
  await setup({ api_key: KEY });
  upstream.movedTo = elsewhere.origin;
  const response = await local.client.responses.create({ model: 'lab/tiny', input: 'secret plans' });
  expect(response.status).toBe('failed');
  expect(response.error?.message).toMatch(/^Provider 'lab' answered with a redirect to another address, which this runtime does not follow/);
  expect(response.error?.message).not.toContain(KEY);
  expect(elsewhere.requests).toEqual([]);
  await elsewhere.close();
});

test('an answer longer than the byte limit is cut off there, failed', async () => {
  await setup({}, { maxStreamBytes: 4096 });
  upstream.reply = () => ({ kind: 'chat', pieces: Array.from({ length: 400 }, () => 'spam ') });
  const response = await local.client.responses.create({ model: 'lab/tiny', input: 'Hi' });
  expect(response.status).toBe('failed');
  expect(response.error?.message).toMatch(/longer than 4 KiB, this runtime's limit/);
  expect(response.output_text.length).toBeGreaterThan(0);
  expect(response.output_text.length).toBeLessThan(4096);
});

test('an unreachable provider: the create’s stream ends failed, saying it may be down or refusing this origin, and how to allow it', async () => {
  const closed = await startFakeUpstream();
  await closed.close();
  await setup();
  await addProvider(local, { id: 'down', base_url: closed.baseUrl, models: ['tiny'] });
  const response = await local.client.responses.create({ model: 'down/tiny', input: 'Hi' });
  expect(response.status).toBe('failed');
  expect(response.error).toMatchObject({ code: 'server_error' });
  expect(response.error?.message).toMatch(/Could not reach provider 'down' at http:\/\/127\.0\.0\.1:\d+\/v1\. Either its server is not running.*CORS.*http:\/\/local\.test/);
});
