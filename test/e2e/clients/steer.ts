/**
 * Issue 33's context items and steering, as a page of the origin uses them through the
 * `openai` SDK: over HTTP (through the service worker) and over the in-page WebSocket (the
 * SDK's WebSocket client, `PageResponsesWS`: see openai-websocket.ts).
 */
import OpenAI from 'openai';
import type { ResponseInputItem, ResponsesServerEvent, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { PageResponsesWS } from './openai-websocket';
import { baseURL, caught, MODEL, script, toolCall } from './scenario-kit';

function client() {
  return new OpenAI({ baseURL: baseURL(), apiKey: 'local', dangerouslyAllowBrowser: true, maxRetries: 0 });
}

const weather = { type: 'function' as const, name: 'get_weather', description: 'Weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false };
const addTools: ResponseInputItem = { type: 'additional_tools', role: 'developer', tools: [weather] };
const jsonFormat = { type: 'json_schema' as const, name: 'city', schema: { type: 'object', properties: { city: { type: 'string' } } }, strict: true };

/** The three items over HTTP, streamed and not: applied, stored, listed, replayed; a bad one refused. */
export async function itemsOverHttp() {
  const openai = client();
  const first = await openai.responses.create({ model: MODEL, input: [addTools, { role: 'user', content: script(toolCall('get_weather', { city: 'Oslo' })) }] });
  // A later turn of the chain, without tools: still callable; streamed.
  const events: ResponseStreamEvent[] = [];
  for await (const e of await openai.responses.create({
    model: MODEL,
    stream: true,
    previous_response_id: first.id,
    input: [{ type: 'configuration_update', reasoning: { effort: 'high' }, text: { format: jsonFormat } }, { role: 'user', content: script(toolCall('get_weather', { city: 'Rome' })) }],
  }))
    events.push(e);
  const streamed = (events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>).response;
  const listed = (await openai.responses.inputItems.list(streamed.id, { order: 'asc' })).data;
  // A client that keeps its own history sends the listed items back.
  const replay = await openai.responses.create({ model: MODEL, input: [...(listed.slice(0, 1) as ResponseInputItem[]), addTools, { role: 'user', content: script(toolCall('get_weather', { city: 'Lima' })) }] });
  const compacted = await openai.responses.create({ model: MODEL, previous_response_id: replay.id, input: [{ type: 'compaction_trigger' }] });
  const after = await openai.responses.create({ model: MODEL, previous_response_id: compacted.id, input: 'And now?' });
  const refused = await caught(() => openai.responses.create({ model: MODEL, input: [{ type: 'additional_tools', role: 'developer', tools: [{ type: 'function', name: 'bad name!' } as never] }, { role: 'user', content: 'x' }] }));
  const badParam = await openai.responses
    .create({ model: MODEL, input: [{ type: 'compaction_trigger' }, { role: 'user', content: 'x' }] })
    .then(() => null, (err: { status: number; error: { param: string } }) => ({ status: err.status, param: err.error.param }));
  return {
    first: first.output.map((o) => ({ type: o.type, name: 'name' in o ? o.name : null })),
    streamed: { calls: streamed.output.map((o) => o.type), effort: streamed.reasoning?.effort, format: streamed.text?.format?.type, tools: streamed.tools.map((t) => t.type) },
    listed: listed.map((i) => i.type),
    replay: replay.output.map((o) => o.type),
    compacted: { status: compacted.status, output: compacted.output.map((o) => o.type), items: (await openai.responses.inputItems.list(compacted.id)).data.length },
    after: { text: after.output_text, effort: after.reasoning?.effort, stored: (await openai.responses.retrieve(compacted.id)).output.map((o) => o.type) },
    refused,
    badParam,
  };
}

/** Opens the SDK's WebSocket client and records every event it parses. */
async function openSocket() {
  const ws = new PageResponsesWS(client());
  await new Promise<void>((resolve) => ws.socket.once('open', () => resolve()));
  const events: ResponsesServerEvent[] = [];
  ws.on('event', (e) => events.push(e));
  const until = async (match: (e: ResponsesServerEvent) => boolean, from = 0) => {
    for (let i = 0; i < 1000; i++) {
      const found = events.slice(from).find(match);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`timed out; got ${events.map((e) => e.type).join(', ')}`);
  };
  return { ws, events, until };
}

/** The items over the WebSocket: additional tools, then a compaction of the store: false chain on the connection. */
export async function itemsOverWebSocket() {
  const { ws, events, until } = await openSocket();
  ws.send({ type: 'response.create', model: MODEL, store: false, input: [addTools, { role: 'user', content: script(toolCall('get_weather', { city: 'Oslo' })) }] });
  const first = (await until((e) => e.type === 'response.completed')) as Extract<ResponsesServerEvent, { type: 'response.completed' }>;
  const from = events.length;
  ws.send({ type: 'response.create', model: MODEL, store: false, previous_response_id: first.response.id, input: [{ type: 'compaction_trigger' }] });
  const compacted = (await until((e) => e.type === 'response.completed', from)) as Extract<ResponsesServerEvent, { type: 'response.completed' }>;
  const from2 = events.length;
  ws.send({ type: 'response.create', model: MODEL, store: false, previous_response_id: compacted.response.id, input: script(toolCall('get_weather', { city: 'Bern' })) });
  const later = (await until((e) => e.type === 'response.completed', from2)) as Extract<ResponsesServerEvent, { type: 'response.completed' }>;
  ws.close();
  return {
    first: first.response.output.map((o) => o.type),
    compacted: compacted.response.output.map((o) => o.type),
    // The tools declared before the compaction are still callable after it.
    later: later.response.output.map((o) => o.type),
  };
}

/** Steers a running streamed response over the SDK's WebSocket client. */
export async function steerRunning() {
  const { ws, events, until } = await openSocket();
  ws.send({ type: 'response.create', model: MODEL, input: script('w'.repeat(400), { delay_ms: 15, chunk: 1 }), stream_id: 'chat' });
  const created = (await until((e) => e.type === 'response.created')) as Extract<ResponsesServerEvent, { type: 'response.created' }>;
  const target = created.response.id;
  await until((e) => e.type === 'response.output_text.delta');
  ws.send({ type: 'response.steer', previous_response_id: target, input: [{ type: 'message', role: 'user', content: 'Shorter, please.' }] });
  const accepted = (await until((e) => e.type === 'response.steer.accepted')) as Extract<ResponsesServerEvent, { type: 'response.steer.accepted' }>;
  const incomplete = (await until((e) => e.type === 'response.incomplete')) as Extract<ResponsesServerEvent, { type: 'response.incomplete' }>;
  const at = events.indexOf(incomplete);
  const successor = (await until((e) => e.type === 'response.completed', at)) as Extract<ResponsesServerEvent, { type: 'response.completed' }>;
  const successorCreated = events.slice(at).find((e) => e.type === 'response.created') as Extract<ResponsesServerEvent, { type: 'response.created' }>;
  const from = events.length;
  ws.send({ type: 'response.steer', previous_response_id: 'resp_missing', input: 'x' });
  const failed = (await until((e) => e.type === 'response.steer.failed', from)) as Extract<ResponsesServerEvent, { type: 'response.steer.failed' }>;
  ws.close();
  const openai = client();
  const stored = await openai.responses.retrieve(target);
  const items = (await openai.responses.inputItems.list(successor.response.id)).data;
  return {
    target,
    accepted: accepted.steer,
    incomplete: { status: incomplete.response.status, reason: incomplete.response.incomplete_details?.reason, text: incomplete.response.output_text },
    successor: {
      previous: successor.response.previous_response_id,
      lane: successorCreated.stream_id,
      createdRightAfter: events.indexOf(successorCreated) === at + 1,
      text: successor.response.output_text,
    },
    stored: { status: stored.status, reason: stored.incomplete_details?.reason, text: stored.output_text },
    items: items.map((i) => ('content' in i && Array.isArray(i.content) ? (i.content[0] as { text?: string }).text : i.type)),
    failed: failed.error.code,
  };
}
