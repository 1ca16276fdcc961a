/**
 * A scripted OpenAI-compatible upstream on a real 127.0.0.1 port (node:http), for what a
 * real server will not do on demand: a tool call from a tiny model, a 429, a stream that
 * breaks off mid-answer, silence, a server that moved (redirects), CORS answers of each kind. It speaks the Chat
 * Completions stream as llama.cpp sends it (first chunk `role`, one chunk per piece, a
 * finish chunk, a usage chunk, `[DONE]`) and the Responses stream's events.
 *
 * Each request is answered by `reply(body, request)` (default: `You said: <last user text>`),
 * and recorded with its headers and whether the client closed the connection early.
 * `POST /v1/embeddings` is answered by `embeddings(body, request)`: by default the
 * `test-embedding` hash vectors (`dimensions` long when asked, else `embeddingDimensions`),
 * scaled by 3 (not normalised) and listed in reverse order with their `index`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { testEmbedding } from '../../src/engine/test-embedder';

export type Reply =
  /** A Chat Completions stream of these pieces, then `finish` (default `stop`) and usage. */
  | { kind: 'chat'; pieces: Piece[]; finish?: string | null; usage?: Record<string, unknown> | null; delayMs?: number; done?: boolean; logprobs?: boolean }
  /** A Responses stream of these events (`sequence_number` added), as `event:` + `data:`. */
  | { kind: 'responses'; events: Array<Record<string, unknown>> }
  /** An HTTP error answer. */
  | { kind: 'error'; status: number; body: unknown; headers?: Record<string, string> }
  /** Headers, then `pieces`, then the connection is destroyed (no finish, no `[DONE]`). */
  | { kind: 'break'; pieces: Piece[] }
  /** Headers and nothing more, until the client gives up. */
  | { kind: 'silence'; headersFirst?: boolean }
  /** Raw bytes as the stream body (after 200 headers). */
  | { kind: 'raw'; body: string }
  /** A JSON answer (200 unless `status`). */
  | { kind: 'json'; body: unknown; status?: number };

/** One chunk's delta: text, reasoning (in either field), or tool-call fragments; or a raw chunk. */
export type Piece =
  | string
  | { reasoning_content: string }
  | { reasoning: string }
  | { tool_calls: Array<{ index: number; id?: string; type?: 'function'; function: { name?: string; arguments?: string } }> }
  | { chunk: Record<string, unknown> };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | null;
  /** The client closed the connection before the answer ended. */
  closedEarly: boolean;
  at: number;
}

export interface FakeUpstreamOptions {
  /** Models `GET /v1/models` lists (default `['tiny']`), with their `n_ctx` when given. */
  models?: Array<string | { id: string; n_ctx?: number }>;
  /** Requests without `Authorization: Bearer <apiKey>` get a 401 (OpenAI's shape, key echoed masked). */
  apiKey?: string;
  /** `Access-Control-Allow-Origin`: `*` (default), an origin, `echo`, or null for none. */
  allowOrigin?: string | null;
  /** `Access-Control-Allow-Headers` on preflights (default `Authorization, Content-Type`). */
  allowHeaders?: string;
  /** Length of the default embeddings' vectors when `dimensions` is not asked (default 32). */
  embeddingDimensions?: number;
}

export interface FakeUpstream {
  /** The base URL a provider is configured with (`…/v1`). */
  baseUrl: string;
  origin: string;
  requests: RecordedRequest[];
  /** Requests being answered right now, and the most at once so far. */
  inFlight: number;
  maxInFlight: number;
  reply: (body: Record<string, unknown>, request: RecordedRequest) => Reply | Promise<Reply>;
  /** Answers `POST /v1/embeddings` (default: fakeEmbeddings). */
  embeddings: (body: Record<string, unknown>, request: RecordedRequest) => Reply | Promise<Reply>;
  /** Set: a server that moved — every request (a probe's GET too) is redirected there, path kept. */
  movedTo: string | null;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function lastUserText(body: Record<string, unknown>): string {
  const messages = (body.messages ?? body.input ?? []) as Array<{ role?: string; content?: unknown }>;
  const user = [...messages].reverse().find((m) => m.role === 'user');
  if (typeof user?.content === 'string') return user.content;
  if (Array.isArray(user?.content)) return (user.content as Array<{ text?: string }>).map((p) => p.text ?? '').join('');
  return '';
}

/** Splits text into pieces of `size` characters (what a model streams). */
export function piecesOf(text: string, size = 3): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function chunkOf(piece: Piece, id: string, logprobs: boolean): Record<string, unknown> {
  if (typeof piece === 'object' && 'chunk' in piece) return piece.chunk;
  const delta = typeof piece === 'string' ? { content: piece } : piece;
  const choice: Record<string, unknown> = { index: 0, delta, finish_reason: null };
  if (logprobs && typeof piece === 'string')
    choice.logprobs = { content: [{ id: 1, token: piece, logprob: -0.5, bytes: [...Buffer.from(piece)], top_logprobs: [{ id: 1, token: piece, logprob: -0.5, bytes: [...Buffer.from(piece)] }, { id: 2, token: 'x', logprob: -2, bytes: [120] }] }] };
  return { id, object: 'chat.completion.chunk', created: 1, model: 'tiny', choices: [choice] };
}

/** What the fake upstream embeds `text` as by default: test-embedding's vector, times 3. */
export function fakeVector(text: string, dimensions = 32): number[] {
  return Array.from(testEmbedding(text, dimensions), (x) => x * 3);
}

/** The default embeddings answer (OpenAI's shape; reversed order, each with its `index`). */
export function fakeEmbeddings(body: Record<string, unknown>, dimensions = 32): Reply {
  const inputs = typeof body.input === 'string' ? [body.input] : (body.input as string[]);
  const length = typeof body.dimensions === 'number' ? body.dimensions : dimensions;
  const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text, length) })).reverse();
  const tokens = inputs.reduce((sum, text) => sum + text.split(/\s+/).length, 0);
  return { kind: 'json', body: { object: 'list', data, model: String(body.model), usage: { prompt_tokens: tokens, total_tokens: tokens } } };
}

export async function startFakeUpstream(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const sockets = new Set<import('node:net').Socket>();
  const upstream: FakeUpstream = {
    baseUrl: '',
    origin: '',
    requests: [],
    inFlight: 0,
    maxInFlight: 0,
    reply: (body) => ({ kind: 'chat', pieces: piecesOf(`You said: ${lastUserText(body)}`) }),
    embeddings: (body) => fakeEmbeddings(body, options.embeddingDimensions),
    movedTo: null,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const cors = (req: http.IncomingMessage): Record<string, string> => {
    const allow = options.allowOrigin === undefined ? '*' : options.allowOrigin;
    if (allow === null) return {};
    return { 'access-control-allow-origin': allow === 'echo' ? (req.headers.origin ?? '*') : allow };
  };
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://upstream').pathname;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...cors(req), 'access-control-allow-methods': 'GET, POST, OPTIONS', 'access-control-allow-headers': options.allowHeaders ?? 'Authorization, Content-Type' });
      return res.end();
    }
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const recorded: RecordedRequest = { method: req.method ?? '', path, headers: req.headers, body: raw ? (JSON.parse(raw) as Record<string, unknown>) : null, closedEarly: false, at: Date.now() };
      upstream.requests.push(recorded);
      let ended = false;
      res.on('close', () => {
        if (!ended) recorded.closedEarly = true;
        upstream.inFlight--;
      });
      upstream.inFlight++;
      upstream.maxInFlight = Math.max(upstream.maxInFlight, upstream.inFlight);
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        ended = true;
        res.writeHead(status, { ...cors(req), 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      if (upstream.movedTo !== null) {
        ended = true;
        res.writeHead(302, { ...cors(req), location: `${upstream.movedTo}${path}` });
        return res.end();
      }
      if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
        const sent = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        return json(401, { error: { message: `Incorrect API key provided: ${sent || '(none)'}.`, type: 'invalid_request_error', code: 'invalid_api_key' } });
      }
      if (req.method === 'GET' && path === '/v1/models') {
        const models = (options.models ?? ['tiny']).map((m) => (typeof m === 'string' ? { id: m } : m));
        return json(200, { object: 'list', data: models.map((m) => ({ id: m.id, object: 'model', created: 1700000000, owned_by: 'fake', ...(m.n_ctx ? { meta: { n_ctx: m.n_ctx } } : {}) })) });
      }
      if (req.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/v1/responses' && path !== '/v1/embeddings')) return json(404, { error: { message: `No route ${req.method} ${path}`, type: 'not_found_error' } });
      void (async () => {
        const reply = await (path === '/v1/embeddings' ? upstream.embeddings : upstream.reply)(recorded.body ?? {}, recorded);
        const stream = () => res.writeHead(200, { ...cors(req), 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const send = (data: unknown, event?: string) => !res.destroyed && res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
        switch (reply.kind) {
          case 'error':
            return json(reply.status, reply.body, reply.headers);
          case 'json':
            return json(reply.status ?? 200, reply.body);
          case 'silence':
            if (reply.headersFirst) stream();
            return;
          case 'raw':
            stream();
            ended = true;
            return res.end(reply.body);
          case 'break':
            stream();
            send(chunkOf({ chunk: { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: null }, finish_reason: null }] } }, 'c', false));
            for (const piece of reply.pieces) send(chunkOf(piece, 'c', false));
            await sleep(20);
            return res.destroy();
          case 'responses': {
            stream();
            reply.events.forEach((event, sequence_number) => send({ ...event, sequence_number }, String(event.type)));
            ended = true;
            return res.end();
          }
          case 'chat': {
            stream();
            const id = 'chatcmpl-fake';
            send({ id, object: 'chat.completion.chunk', created: 1, model: 'tiny', choices: [{ index: 0, delta: { role: 'assistant', content: null }, finish_reason: null }] });
            for (const piece of reply.pieces) {
              if (res.destroyed) return;
              if (reply.delayMs) await sleep(reply.delayMs);
              send(chunkOf(piece, id, reply.logprobs ?? false));
            }
            if (reply.finish !== null) send({ id, object: 'chat.completion.chunk', created: 1, model: 'tiny', choices: [{ index: 0, delta: {}, finish_reason: reply.finish ?? 'stop' }] });
            if (reply.usage !== null)
              send({ id, object: 'chat.completion.chunk', created: 1, model: 'tiny', choices: [], usage: reply.usage ?? { prompt_tokens: 11, completion_tokens: reply.pieces.length, total_tokens: 11 + reply.pieces.length, prompt_tokens_details: { cached_tokens: 3 } } });
            if (reply.done !== false) send('[DONE]');
            ended = true;
            return res.end();
          }
        }
      })();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  upstream.origin = `http://127.0.0.1:${port}`;
  upstream.baseUrl = `${upstream.origin}/v1`;
  return upstream;
}
