/**
 * Routes in Chromium, through the real `openai` SDK in the page and the service worker: a
 * real llama.cpp `llama-server` is the provider (behind a pass-through proxy on 127.0.0.1
 * that records what reaches it), `test-scripted` the device's model. An image goes to the
 * scripted upstream (test/fakes/fake-upstream.ts: the tiny llama-server model cannot see);
 * a web-llm model not downloaded is the device side of another route, with an empty model
 * mirror that records any download.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { configureRuntime, openApp, serveModelMirror, startE2E, waitForRuntime, type ModelMirror } from '../support/browser';
import { lastTurn, screenshot, send } from './app-support';
import { LLAMA_SERVER, LLAMA_SERVER_MISSING, startLlamaServer, type LlamaServer } from '../support/llama-server';
import { startFakeUpstream, type FakeUpstream } from '../fakes/fake-upstream';

if (!LLAMA_SERVER) console.warn(`[routes e2e] skipped: ${LLAMA_SERVER_MISSING}`);

const IMAGE = 'data:image/png;base64,iVBORw0KGgo=';

/** What reached llama-server through the proxy. */
interface Seen {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
}

/** A pass-through proxy to `target` (headers and bodies as they are, CORS included) that records each request. */
async function recordingProxy(target: string): Promise<{ baseUrl: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      if (req.method !== 'OPTIONS') seen.push({ method: req.method ?? '', path: req.url ?? '', body: raw.length ? (JSON.parse(raw.toString()) as Record<string, unknown>) : null });
      const out = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => res.destroy());
      out.end(raw);
    });
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    seen,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let e2e: Awaited<ReturnType<typeof startE2E>>;
let llama: LlamaServer;
let proxy: Awaited<ReturnType<typeof recordingProxy>>;
let fake: FakeUpstream;
let mirror: ModelMirror;
let page: Page;
let remote: string;

describe.skipIf(!LLAMA_SERVER)('routes: this device, then a llama-server', () => {
  beforeAll(async () => {
    [e2e, llama, fake, mirror] = await Promise.all([startE2E(), startLlamaServer({ slots: 2 }), startFakeUpstream(), serveModelMirror(fs.mkdtempSync(path.join(os.tmpdir(), 'routes-mirror-')))]);
    fake.reply = () => ({ kind: 'chat', pieces: ['I see ', 'a picture.'] });
    proxy = await recordingProxy(llama.baseUrl);
    const context = await e2e.browser.newContext();
    await configureRuntime(context, e2e.app.origin, { modelBase: mirror.base });
    page = await openApp(context, e2e.app.origin);
    remote = `llama/${llama.model}`;
    expect(await post('/v1/local/providers', { id: 'llama', base_url: proxy.baseUrl })).toMatchObject({ status: 200 });
    expect(await post('/v1/local/providers', { id: 'fake', base_url: fake.baseUrl, models: ['tiny'] })).toMatchObject({ status: 200 });
  }, 90_000);
  afterAll(async () => {
    await Promise.all([e2e?.close(), llama?.close(), proxy?.close(), fake?.close(), mirror?.close()]);
  });

  function post(path: string, body: unknown) {
    return page.evaluate(
      async ({ path, body }) => {
        const r = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return { status: r.status, body: (await r.json()) as Record<string, unknown> };
      },
      { path, body },
    );
  }

  function create(body: Record<string, unknown>) {
    return page.evaluate((b) => window.sdk!.responses.create(b as never) as Promise<Response>, body);
  }

  /** A streamed create: the model `response.created` names, and the last event's response. */
  function streamed(body: Record<string, unknown>) {
    return page.evaluate(async (b) => {
      const events: ResponseStreamEvent[] = [];
      for await (const e of (await window.sdk!.responses.create({ ...b, stream: true } as never)) as unknown as AsyncIterable<ResponseStreamEvent>) events.push(e);
      const created = events.find((e) => e.type === 'response.created');
      const last = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
      return { createdModel: created?.type === 'response.created' ? created.response.model : null, last: last.type, model: last.response.model, text: last.response.output_text };
    }, body);
  }

  test('bad routes are refused with the field named, and not stored; good ones are listed as models', async () => {
    const bad = await post('/v1/local/routes', { id: 'auto', local: 'test-scripted', remote: 'nowhere/x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ param: 'remote', code: 'invalid_route' });
    expect((await post('/v1/local/routes', { id: 'auto', local: remote, remote })).body.error).toMatchObject({ param: 'local' });
    expect((await post('/v1/local/routes', { id: 'test-scripted', local: 'test-scripted', remote })).body.error).toMatchObject({ param: 'id' });
    const listed = await page.evaluate(() => fetch('/v1/local/routes').then((r) => r.json() as Promise<{ data: unknown[] }>));
    expect(listed.data).toEqual([]);
    for (const body of [
      { id: 'auto', local: 'test-scripted', remote },
      { id: 'see', local: 'test-scripted', remote: 'fake/tiny' },
      { id: 'server', local: 'test-scripted', remote, prefer: 'remote' },
    ])
      expect(await post('/v1/local/routes', body)).toMatchObject({ status: 200 });
    const models = await page.evaluate(async () => (await window.sdk!.models.list()).data.map((m) => m.id));
    expect(models).toEqual(expect.arrayContaining(['auto', 'see', 'server']));
  });

  test('a text request to a prefer-local route runs on the device: no request reaches the provider', async () => {
    const before = proxy.seen.length;
    const result = await streamed({ model: 'auto', input: 'Hello there' });
    expect(result).toEqual({ createdModel: 'test-scripted', last: 'response.completed', model: 'test-scripted', text: 'You said: Hello there' });
    expect(proxy.seen.slice(before)).toEqual([]);
  });

  test('an image the device model cannot see goes to the provider model that takes it', async () => {
    const result = await streamed({ model: 'see', input: [{ role: 'user', content: [{ type: 'input_text', text: 'What is it?' }, { type: 'input_image', image_url: IMAGE, detail: 'auto' }] }] });
    expect(result).toEqual({ createdModel: 'fake/tiny', last: 'response.completed', model: 'fake/tiny', text: 'I see a picture.' });
    const sent = fake.requests.filter((r) => r.method === 'POST').at(-1)!;
    expect(sent.body).toMatchObject({ messages: [{ role: 'user', content: [{ type: 'text', text: 'What is it?' }, { type: 'image_url', image_url: { url: IMAGE } }] }] });
  });

  test('a device model that is not downloaded is not downloaded: the provider answers', async () => {
    const gpuModel = await page.evaluate(async () => (await window.sdk!.models.list()).data.find((m) => (m as { engine?: string }).engine === 'web-llm')!.id);
    expect(await post('/v1/local/routes', { id: 'far', local: gpuModel, remote })).toMatchObject({ status: 200 });
    const result = await streamed({ model: 'far', input: 'Once upon a time', temperature: 0, max_output_tokens: 16 });
    expect(result.createdModel).toBe(remote);
    expect(result.model).toBe(remote);
    expect(['response.completed', 'response.incomplete']).toContain(result.last);
    expect(result.text.length).toBeGreaterThan(0);
    expect(mirror.requests).toEqual([]);
    const status = await page.evaluate(() => fetch('/v1/local/status').then((r) => r.json() as Promise<{ loading: unknown; models: Array<{ id: string; cached: boolean }> }>));
    expect(status.loading).toBeNull();
    expect(status.models.find((m) => m.id === gpuModel)?.cached).toBe(false);
  });

  test('a chain crosses from the device to the provider, which gets the whole history', async () => {
    const first = await create({ model: 'auto', input: 'Hello' });
    expect(first.model).toBe('test-scripted');
    const before = proxy.seen.length;
    // More output than the device model's window holds: this turn needs the provider.
    const second = await create({ model: 'auto', previous_response_id: first.id, input: 'Go on', temperature: 0, max_output_tokens: 40_000 });
    expect(second.model).toBe(remote);
    expect(['completed', 'incomplete']).toContain(second.status);
    const sent = proxy.seen.slice(before).find((r) => r.method === 'POST')!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.body!.messages).toEqual([
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'You said: Hello' },
      { role: 'user', content: 'Go on' },
    ]);
  });

  test('the app: Settings → Routes adds one, the picker offers it under Auto, and each answer names the model that served it', async () => {
    const app = await (await e2e.browser.newContext()).newPage();
    await app.goto(`${e2e.app.origin}/?test-models`);
    await waitForRuntime(app);
    const added = await app.evaluate(
      async (baseUrl) => (await fetch('/v1/local/providers', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'box', base_url: baseUrl, models: ['tiny'] }) })).status,
      fake.baseUrl,
    );
    expect(added).toBe(200);
    await app.reload();
    await waitForRuntime(app);
    await app.getByRole('button', { name: 'Settings' }).click();
    const settings = app.getByRole('dialog', { name: 'Settings' });
    await settings.getByLabel('Route name (shown as a model)').fill('both');
    await settings.getByLabel('Model on this device').selectOption('test-scripted');
    await settings.getByLabel('Provider model').selectOption('box/tiny');
    await settings.getByLabel('Prefer', { exact: true }).selectOption('remote');
    await settings.getByRole('button', { name: 'Add route' }).click();
    await expect.poll(() => settings.locator('li[data-route="both"]').textContent()).toContain('tiny on box, then');
    await app.keyboard.press('Escape');

    await app.locator('button.model-button').click();
    const picker = app.getByRole('dialog', { name: 'Models' });
    const route = picker.getByRole('region', { name: 'Auto (this device and a server)' }).locator('li.model[data-model-id="both"]');
    expect(await route.textContent()).toContain('Auto — box, then this device');
    await route.getByRole('button', { name: 'Use' }).click();
    await app.keyboard.press('Escape');
    expect(await app.getByText('Nothing you type leaves this device').count()).toBe(0);
    await expect.poll(() => app.locator('.remote-notice').getAttribute('data-provider')).toBe('box');

    await send(app, 'Hello');
    await lastTurn(app).and(app.locator('[data-turn-status="completed"]')).waitFor({ timeout: 30_000 });
    expect(await lastTurn(app).locator('[data-served-by]').textContent()).toBe('box/tiny (via both)');
    await screenshot(app, 'routes-chat');
  });

  test('prefer-remote uses the provider while it is up, and the device once it is down', async () => {
    const up = await streamed({ model: 'server', input: 'Once upon a time', temperature: 0, max_output_tokens: 16 });
    expect(up.createdModel).toBe(remote);
    expect(up.model).toBe(remote);
    await Promise.all([llama.close(), proxy.close()]);
    // A provider that answered within the last 2 s is taken as up without asking again.
    await new Promise((r) => setTimeout(r, 2100));
    const down = await streamed({ model: 'server', input: 'Are you there?' });
    expect(down).toEqual({ createdModel: 'test-scripted', last: 'response.completed', model: 'test-scripted', text: 'You said: Are you there?' });
  });
});
