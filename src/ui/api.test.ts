import { describe, expect, it, test } from 'vitest';
import { createApi, LocalApiError, type LoadProgress } from './api';
import { ModelsStore } from './models-store';

const ORIGIN = 'http://app.local';
const STATUS = {
  gpu: { usable: false, reason: 'No adapter.', shaderF16: false, cause: 'no_adapter' },
  cpu: { usable: true, reason: null, threads: 2 },
  isolation: { crossOriginIsolated: true, reason: null },
  storage: null,
  loaded: null,
  loading: null,
  models: [{ id: 'a', cached: false, loaded: false }],
};
const MODELS = { object: 'list', data: [{ id: 'a', object: 'model', created: 1, owned_by: 'local' }] };

/** The runtime's fetch answering `/v1/local/status` (and `/v1/models`) with `status`. */
function answering(status: unknown, init?: ResponseInit): typeof fetch {
  return async (input) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.endsWith('/v1/models')) return Response.json(MODELS);
    return typeof status === 'string' ? new Response(status, init) : Response.json(status, init);
  };
}

/** The load route answering with these SSE events. */
function streaming(events: unknown[]): typeof fetch {
  const body = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n';
  return async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

const signal = () => new AbortController().signal;

describe('createApi: /v1/local answers are checked against the protocol', () => {
  it('a status that fits is returned as sent', async () => {
    expect(await createApi(answering(STATUS), ORIGIN).localStatus()).toEqual(STATUS);
  });

  it('a status without cpu (an older runtime) is a LocalApiError naming the field, not a status with holes', async () => {
    const { cpu: _cpu, ...older } = STATUS;
    const failure = createApi(answering(older), ORIGIN).localStatus();
    await expect(failure).rejects.toBeInstanceOf(LocalApiError);
    await expect(failure).rejects.toThrow(/\/v1\/local\/status.*cpu: expected object/);
  });

  it('a status with a wrongly typed field, or not JSON at all, is rejected the same way', async () => {
    await expect(createApi(answering({ ...STATUS, models: [{ id: 'a', cached: 'yes', loaded: false }] }), ORIGIN).localStatus()).rejects.toThrow(/models\.0\.cached: expected boolean/);
    await expect(createApi(answering('<html>', { headers: { 'content-type': 'text/html' } }), ORIGIN).localStatus()).rejects.toThrow(/not what this app understands/);
  });

  it('no model management (404) is null; another error answer keeps its message and code', async () => {
    expect(await createApi(answering({ error: { message: 'none', type: 'invalid_request_error', param: null, code: 'unknown_url' } }, { status: 404 }), ORIGIN).localStatus()).toBeNull();
    await expect(createApi(answering({ error: { message: 'store is broken', type: 'server_error', param: null, code: 'runtime_error' } }, { status: 500 }), ORIGIN).localStatus()).rejects.toMatchObject({
      status: 500,
      code: 'runtime_error',
      message: 'store is broken',
    });
  });

  it('load: progress events reach the callback without their type; an error event rejects with its message and code', async () => {
    const seen: unknown[] = [];
    await createApi(streaming([{ type: 'progress', model: 'a', phase: 'download', progress: 0.5, loadedBytes: 5, totalBytes: 10, text: 'half' }, { type: 'ready', model: 'a' }]), ORIGIN).loadModel('a', (p) => seen.push(p), signal());
    expect(seen).toEqual([{ model: 'a', phase: 'download', progress: 0.5, loadedBytes: 5, totalBytes: 10, text: 'half' }]);
    await expect(
      createApi(streaming([{ type: 'error', error: { message: 'No space left.', type: 'server_error', param: null, code: 'quota_exceeded' } }]), ORIGIN).loadModel('a', () => {}, signal()),
    ).rejects.toMatchObject({ message: 'No space left.', code: 'quota_exceeded' });
  });

  it('load: a progress event that does not fit is a LocalApiError, not a NaN progress bar', async () => {
    const failure = createApi(streaming([{ type: 'progress', model: 'a', phase: 'download', progress: '50%', text: 'half' }]), ORIGIN).loadModel('a', () => {}, signal());
    await expect(failure).rejects.toThrow(/download progress event.*progress: expected number/);
    await expect(createApi(streaming([{ type: 'paused', model: 'a' }]), ORIGIN).loadModel('a', () => {}, signal())).rejects.toThrow(/type: expected one of "progress", "ready", "error"/);
  });
});

describe('ModelsStore with a status that does not fit', () => {
  it('still lists the models, and says why the status is missing', async () => {
    const store = new ModelsStore();
    store.connect(createApi(answering({ ...STATUS, gpu: { usable: 'maybe' } }), ORIGIN));
    await store.refresh();
    const state = store.get();
    expect(state.models.map((m) => m.id)).toEqual(['a']);
    expect(state.status).toBeNull();
    expect(state.statusError).toMatch(/gpu\.usable/);
  });
});

// SSE decoding of the download stream (split line ends, cancel).

/** A fetch answering the load route with `text` as an SSE body, one byte per chunk; records a cancel. */
function sseFetch(text: string, chunkBytes = 1) {
  const bytes = new TextEncoder().encode(text);
  const seen = { cancelled: false };
  const fetchFn = (async () => {
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return; // stays open until cancelled, like a live download
        controller.enqueue(bytes.slice(at, at + chunkBytes));
        at += chunkBytes;
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  }) as typeof fetch;
  return { fetchFn, seen };
}

test('model download progress is decoded when CRLF line ends are split between \\r and \\n', async () => {
  // One event whose JSON spans two `data:` lines (joined with '\n' per the SSE rules), CRLF
  // line ends, delivered a byte at a time: every '\r' ends one chunk and its '\n' starts the next.
  const text =
    'event: progress\r\ndata: {"type":"progress","model":"m","phase":"download",\r\ndata: "progress":0.5,"text":"half é"}\r\n\r\n' +
    'event: ready\r\ndata: {"type":"ready","model":"m"}\r\n\r\n' +
    'data: [DONE]\r\n\r\n';
  const { fetchFn, seen } = sseFetch(text);
  const progress: LoadProgress[] = [];
  await createApi(fetchFn, ORIGIN).loadModel('m', (p) => progress.push(p), new AbortController().signal);
  expect(progress).toEqual([{ model: 'm', phase: 'download', progress: 0.5, text: 'half é' }]);
  // Leaving after `ready` closes the stream.
  expect(seen.cancelled).toBe(true);
});

test('an error event rejects with its message and code', async () => {
  const { fetchFn } = sseFetch('data: {"type":"error","error":{"message":"No space left.","type":"server_error","param":null,"code":"storage_full"}}\n\ndata: [DONE]\n\n', 5);
  await expect(createApi(fetchFn, ORIGIN).loadModel('m', () => {}, new AbortController().signal)).rejects.toMatchObject({
    message: 'No space left.',
    code: 'storage_full',
  });
});

test('aborting the download cancels the stream and rejects with the reason', async () => {
  const { fetchFn, seen } = sseFetch('data: {"type":"progress","model":"m","phase":"download","progress":0.1,"text":""}\n\n', 64);
  const abort = new AbortController();
  const reason = new Error('user closed the dialog');
  const loading = createApi(fetchFn, ORIGIN).loadModel('m', () => abort.abort(reason), abort.signal);
  await expect(loading).rejects.toBe(reason);
  expect(seen.cancelled).toBe(true);
});

describe('createApi: storage', () => {
  const entry = (id: string) => ({ object: 'local.stored_response', id, created_at: 1, status: 'completed', model: 'm', previous_response_id: null, bytes: 10 });

  it('storedResponses reads every page, oldest first, following last_id', async () => {
    const asked: string[] = [];
    const fetchFn: typeof fetch = async (input) => {
      const url = new URL(String(input));
      asked.push(url.search);
      const after = url.searchParams.get('after');
      const page = after === null ? { data: [entry('a'), entry('b')], has_more: true, last_id: 'b' } : { data: [entry('c')], has_more: false, last_id: 'c' };
      return Response.json({ object: 'list', first_id: page.data[0]!.id, ...page });
    };
    expect((await createApi(fetchFn, ORIGIN).storedResponses()).map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(asked).toEqual(['?order=asc&limit=100', '?order=asc&limit=100&after=b']);
  });

  it('pruneStorage sends the policy as JSON (or nothing), and an answer that does not fit is a LocalApiError', async () => {
    const sent: Array<{ type: string | null; body: string }> = [];
    const fetchFn: typeof fetch = async (_input, init) => {
      sent.push({ type: new Headers(init?.headers).get('content-type'), body: String(init?.body ?? '') });
      return Response.json({ object: 'local.storage.pruned', deleted: 2, bytes_freed: 30, retention: { max_age_days: 7, max_bytes: null } });
    };
    const api = createApi(fetchFn, ORIGIN);
    expect(await api.pruneStorage({ max_age_days: 7, max_bytes: null })).toMatchObject({ deleted: 2 });
    await api.pruneStorage();
    expect(sent).toEqual([
      { type: 'application/json', body: '{"retention":{"max_age_days":7,"max_bytes":null}}' },
      { type: null, body: '' },
    ]);
    await expect(createApi(answering({ object: 'local.storage', responses: 1 }), ORIGIN).storageSummary()).rejects.toThrow(/local\/storage.*conversations: expected number/);
  });
});
