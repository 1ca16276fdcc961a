/** The `/v1/local/*` model-management routes over a ModelManager (a fake at that port). */
import 'fake-indexeddb/auto';
import { expect, test } from 'vitest';
import { chatFormats } from '../../src/chat/chat-formats';
import { ScriptedEngine } from '../../src/engine/scripted-engine';
import { readSse } from '../../src/protocol/sse';
import type { ModelManager } from '../../src/ports/model-manager';
import { createResponsesServer } from '../../src/server/responses-server';
import { openIdbStore } from '../../src/store/idb-store';
import { sleep } from '../../src/shared/abort';
import { invalidRequest } from '../../src/shared/api-error';

function fakeManager(log: string[]): ModelManager {
  return {
    async status() {
      return { gpu: { usable: false, reason: 'no adapter', shaderF16: false }, cpu: { usable: true, reason: null }, isolation: { crossOriginIsolated: false, reason: 'not cross-origin isolated' }, storage: null, loaded: null, loading: null, models: [{ id: 'test-scripted', cached: true, loaded: false }] };
    },
    async load(id, onProgress, signal) {
      for (let i = 1; i <= 4; i++) {
        if (signal.aborted) {
          log.push('aborted');
          throw invalidRequest('cancelled');
        }
        onProgress({ model: id, phase: i < 4 ? 'download' : 'ready', progress: i / 4, loadedBytes: i * 100, totalBytes: 400, text: `step ${i}` });
        await sleep(5);
      }
      log.push(`loaded ${id}`);
    },
    async deleteCached(id) {
      log.push(`deleted ${id}`);
    },
  };
}

async function server(log: string[]) {
  const store = await openIdbStore({ name: `local-models-${Date.now()}-${Math.random()}` });
  return createResponsesServer({ store, engines: [new ScriptedEngine()], formats: chatFormats, modelManager: fakeManager(log) });
}

test('load streams progress then ready; delete removes the cache; status reports', async () => {
  const log: string[] = [];
  const s = await server(log);
  const res = await s.fetch(new Request('http://x/v1/local/models/test-scripted/load', { method: 'POST' }));
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const events = [];
  for await (const m of readSse(res.body!)) if (m.data !== '[DONE]') events.push(JSON.parse(m.data));
  expect(events.map((e) => e.type)).toEqual(['progress', 'progress', 'progress', 'progress', 'ready']);
  expect(events[1]).toMatchObject({ phase: 'download', progress: 0.5, loadedBytes: 200, totalBytes: 400 });
  expect(log).toEqual(['loaded test-scripted']);

  const del = await s.fetch(new Request('http://x/v1/local/models/test-scripted', { method: 'DELETE' }));
  expect(await del.json()).toEqual({ id: 'test-scripted', object: 'model.cache.deleted', deleted: true });
  const status = await (await s.fetch(new Request('http://x/v1/local/status'))).json();
  expect(status.gpu).toEqual({ usable: false, reason: 'no adapter', shaderF16: false });

  const unknown = await s.fetch(new Request('http://x/v1/local/models/nope/load', { method: 'POST' }));
  expect(unknown.status).toBe(404);
  await s.close();
});

test('closing the progress stream cancels the download', async () => {
  const log: string[] = [];
  const s = await server(log);
  const res = await s.fetch(new Request('http://x/v1/local/models/test-scripted/load', { method: 'POST' }));
  const reader = res.body!.getReader();
  await reader.read();
  await reader.cancel();
  await sleep(40);
  expect(log).toEqual(['aborted']);
  await s.close();
});

test('without a model manager the routes say so', async () => {
  const store = await openIdbStore({ name: `local-models-none-${Date.now()}` });
  const s = await createResponsesServer({ store, engines: [new ScriptedEngine()], formats: chatFormats });
  const res = await s.fetch(new Request('http://x/v1/local/status'));
  expect(res.status).toBe(404);
  expect((await res.json()).error.message).toMatch(/not available/);
  await s.close();
});
