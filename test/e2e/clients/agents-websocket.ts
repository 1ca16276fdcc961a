/**
 * The OpenAI Agents SDK in WebSocket mode (`setOpenAIResponsesTransport('websocket')`), in
 * the page: its `OpenAIResponsesWSModel` opens `new globalThis.WebSocket(url, {headers})` —
 * the call shape a browser's own WebSocket refuses — which the app routes to the runtime.
 * Every model call must go over the socket: the client's fetch records any HTTP call.
 */
import { Agent, run, setDefaultOpenAIClient, setOpenAIResponsesTransport, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';
import { baseURL, MODEL, recordingFetch, script, toolCall, weatherLookup, type RecordedRequest } from './scenario-kit';

setTracingDisabled(true);

/** Frames the SDK sent, read off the sockets it opened. */
interface SocketLog {
  urls: string[];
  /** Each socket's second constructor argument, as the SDK passed it. */
  options: unknown[];
  sent: Array<Record<string, unknown>>;
}

function recordSockets(): SocketLog {
  const log: SocketLog = { urls: [], options: [], sent: [] };
  const Routed = globalThis.WebSocket as unknown as new (url: string, second?: unknown) => WebSocket;
  function Recording(url: string, second?: unknown): WebSocket {
    const ws = new Routed(url, second);
    log.urls.push(String(url));
    log.options.push(second);
    const send = ws.send.bind(ws);
    ws.send = (data) => {
      log.sent.push(JSON.parse(String(data)) as Record<string, unknown>);
      send(data);
    };
    return ws;
  }
  Object.assign(Recording, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  globalThis.WebSocket = Recording as unknown as typeof WebSocket;
  return log;
}

function setup() {
  const http: RecordedRequest[] = [];
  const toolCalls: unknown[] = [];
  setDefaultOpenAIClient(new OpenAI({ baseURL: baseURL(), apiKey: 'local-key', dangerouslyAllowBrowser: true, maxRetries: 0, fetch: recordingFetch(http) }));
  setOpenAIResponsesTransport('websocket');
  const getWeather = tool({ name: 'get_weather', description: 'Current weather of a city', parameters: z.object({ city: z.string() }), execute: weatherLookup(toolCalls) });
  const agent = new Agent({ name: 'Weather', instructions: 'Answer with the weather.', model: MODEL, tools: [getWeather] });
  return { agent, http, toolCalls };
}

const summary = (log: SocketLog, http: RecordedRequest[]) => ({
  socketUrls: [...new Set(log.urls)],
  headers: (log.options[0] as { headers?: Record<string, string> } | undefined)?.headers ?? null,
  frames: log.sent.map((f) => ({ type: f.type, stream: f.stream, previous: f.previous_response_id ?? null })),
  httpCalls: http.map((r) => `${r.method} ${r.path}`),
});

export async function toolRoundTrip() {
  const log = recordSockets();
  const { agent, http, toolCalls } = setup();
  const result = await run(agent, script([toolCall('get_weather', { city: 'Paris' }), 'Paris is clear.']));
  return { finalOutput: result.finalOutput, toolCalls, items: result.newItems.map((i) => i.type), ...summary(log, http) };
}

export async function multiTurnStreamed() {
  const log = recordSockets();
  const { agent, http, toolCalls } = setup();
  const steps = [toolCall('get_weather', { city: 'Paris' }), toolCall('get_weather', { city: 'Oslo' }), 'Paris is clear, Oslo has rain.'];
  const stream = await run(agent, script(steps, { chunk: 3 }), { stream: true, maxTurns: 5 });
  const textDeltas: string[] = [];
  const runEvents: string[] = [];
  for await (const event of stream) {
    if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') textDeltas.push(event.data.delta);
    if (event.type === 'run_item_stream_event') runEvents.push(event.name);
  }
  await stream.completed;
  // A second run on the same agent: the SDK reuses its open connection.
  const again = await run(agent, 'And now?');
  return { finalOutput: stream.finalOutput, again: again.finalOutput, toolCalls, textDeltas, runEvents, ...summary(log, http) };
}

/** Server-managed conversation: `previousResponseId` makes the SDK send only new items, chained by id. */
export async function chainedByResponseId() {
  const log = recordSockets();
  const { agent, http, toolCalls } = setup();
  const first = await run(agent, 'Hello');
  const result = await run(agent, script([toolCall('get_weather', { city: 'Oslo' }), 'Oslo has rain.']), { previousResponseId: first.lastResponseId });
  return { first: first.finalOutput, finalOutput: result.finalOutput, toolCalls, ...summary(log, http) };
}
