/**
 * Tool search through the `openai` SDK in the page (Chromium), as an app on this origin
 * would use it: deferred functions, `tool_search` run by the runtime and by the client,
 * over HTTP (streamed and not, stored and replayed) and over the in-page WebSocket (the
 * SDK's `ResponsesWSBase`, see openai-websocket.ts).
 */
import OpenAI from 'openai';
import type { ResponseStreamEvent, Tool } from 'openai/resources/responses/responses';
import { baseURL, MODEL, script, toolCall } from './scenario-kit';
import { PageResponsesWS } from './openai-websocket';

const client = () => new OpenAI({ baseURL: baseURL(), apiKey: 'local', dangerouslyAllowBrowser: true, maxRetries: 0 });

const deferred = (name: string, description: string): Tool => ({ type: 'function', name, description, parameters: { type: 'object', properties: {} }, strict: false, defer_loading: true });
const TOOLS: Tool[] = [
  { type: 'tool_search' },
  deferred('get_weather', 'Current weather for a city.'),
  deferred('send_email', 'Send an email message.'),
  deferred('book_flight', 'Book a flight between two airports.'),
];
const ASKED = script([toolCall('tool_search', { query: 'weather' }), toolCall('get_weather', { city: 'Oslo' }), 'Clear skies.']);

type Item = { type: string; [key: string]: unknown };
const kinds = (output: readonly unknown[]) => (output as Item[]).map((i) => i.type);
const loadedNames = (output: readonly unknown[]) => ((output as Item[]).find((i) => i.type === 'tool_search_output')?.tools as Array<{ name: string }> | undefined)?.map((t) => t.name) ?? null;

/** Not streamed, stored: the search, the loaded call, then the chain answers the call. */
export async function serverSearchStored() {
  const openai = client();
  const first = await openai.responses.create({ model: MODEL, tools: TOOLS, input: ASKED });
  const fc = first.output.find((i) => i.type === 'function_call') as { call_id: string; name: string };
  const next = await openai.responses.create({ model: MODEL, tools: TOOLS, previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: fc.call_id, output: 'clear' }] });
  const retrieved = await openai.responses.retrieve(first.id);
  return { kinds: kinds(first.output), loaded: loadedNames(first.output), called: fc.name, answer: next.output_text, retrieved: kinds(retrieved.output) };
}

/** Streamed, not stored, then replayed statelessly: the items go back as input and the loaded tool stays callable. */
export async function serverSearchStreamedReplayed() {
  const openai = client();
  const events: ResponseStreamEvent[] = [];
  for await (const e of await openai.responses.create({ model: MODEL, tools: TOOLS, input: ASKED, stream: true, store: false })) events.push(e);
  const done = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
  const announced = events.flatMap((e) => (e.type === 'response.output_item.done' ? [e.item.type] : []));
  const fc = done.response.output.find((i) => i.type === 'function_call') as { call_id: string };
  const replay = await openai.responses.create({
    model: MODEL,
    tools: TOOLS,
    input: [{ role: 'user', content: ASKED }, ...(done.response.output as never[]), { type: 'function_call_output', call_id: fc.call_id, output: 'clear' }],
  });
  const listed = await openai.responses.inputItems.list(replay.id, { order: 'asc' });
  return { announced, answer: replay.output_text, listed: listed.data.map((i) => i.type) };
}

/** The client runs the search: the call ends the response; its output (by previous_response_id) loads a tool of its own. */
export async function clientSearch() {
  const openai = client();
  const tools: Tool[] = [{ type: 'tool_search', execution: 'client', description: 'Search the app catalog.', parameters: { type: 'object', properties: { query: { type: 'string' } } } }];
  const first = await openai.responses.create({ model: MODEL, tools, input: script([toolCall('tool_search', { query: 'notes' }), toolCall('add_note', { text: 'hi' })]) });
  const call = first.output[0] as unknown as Item;
  const next = await openai.responses.create({
    model: MODEL,
    tools,
    previous_response_id: first.id,
    input: [{ type: 'tool_search_output', call_id: call.call_id as string, tools: [{ type: 'function', name: 'add_note', description: 'Add a note.', parameters: { type: 'object', properties: { text: { type: 'string' } } }, strict: false }] }],
  });
  return { call: { type: call.type, execution: call.execution, arguments: call.arguments }, next: (next.output as unknown as Item[]).map((i) => `${i.type}:${String(i.name)}`) };
}

/** Over the WebSocket: a turn that searches and calls the loaded tool, then a chained turn answering it. */
export async function overWebSocket() {
  const ws = new PageResponsesWS(client());
  const turn = async (body: Record<string, unknown>) => {
    ws.send({ type: 'response.create', ...body } as never);
    const types: string[] = [];
    for await (const message of ws.stream()) {
      if (message.type !== 'message') continue;
      const event = message.message as { type: string; item?: Item; response?: { id: string; output: Item[]; output_text?: string } };
      if (event.type === 'response.output_item.done') types.push(event.item!.type);
      if (event.type === 'response.completed' || event.type === 'response.failed' || event.type === 'error') return { types, response: event.response ?? null, error: event.type === 'error' ? event : null };
    }
    throw new Error('socket closed mid-turn');
  };
  const first = await turn({ model: MODEL, tools: TOOLS, input: ASKED });
  const fc = first.response!.output.find((i) => i.type === 'function_call')!;
  const second = await turn({ model: MODEL, tools: TOOLS, previous_response_id: first.response!.id, input: [{ type: 'function_call_output', call_id: fc.call_id, output: 'clear' }] });
  ws.close();
  return { first: first.types, loaded: loadedNames(first.response!.output), second: second.types, text: second.response?.output.flatMap((i) => (i.type === 'message' ? [(i.content as Array<{ text: string }>)[0]!.text] : [])).join('') };
}
