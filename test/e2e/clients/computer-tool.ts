/**
 * The computer tool, run by the client (issue 33, item 6), through the `openai` SDK in the
 * page (Chromium): `computer_use_preview` and the GA `computer` tool become `computer_call`
 * items that end the response; the client's `computer_call_output` screenshot goes back in —
 * over HTTP (streamed and not, stored and replayed statelessly) and over the in-page WebSocket.
 */
import OpenAI from 'openai';
import type { ResponseStreamEvent, Tool } from 'openai/resources/responses/responses';
import { baseURL, caught, script, toolCall } from './scenario-kit';
import { PageResponsesWS } from './openai-websocket';

const client = () => new OpenAI({ baseURL: baseURL(), apiKey: 'local', dangerouslyAllowBrowser: true, maxRetries: 0 });

/** The scripted model that sees images: a screenshot may be shown to it. */
const VISION = 'test-scripted-vision';
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const CLICK = { type: 'click', button: 'left', x: 10, y: 20 };
const PREVIEW: Tool = { type: 'computer_use_preview', display_width: 1024, display_height: 768, environment: 'browser' };
const ASKED = script([toolCall('computer', { action: CLICK }), 'Clicked.']);

type Item = { type: string; [key: string]: unknown };
const kinds = (output: readonly unknown[]) => (output as Item[]).map((i) => i.type);
const screenshot = (callId: string) => ({ type: 'computer_call_output' as const, call_id: callId, output: { type: 'computer_screenshot' as const, image_url: PNG } });

/** Not streamed, stored: the call ends the response; the screenshot, by previous_response_id, gets the answer. */
export async function previewStored() {
  const openai = client();
  const first = await openai.responses.create({ model: VISION, tools: [PREVIEW], input: ASKED });
  const call = first.output[0] as unknown as Item;
  const next = await openai.responses.create({ model: VISION, tools: [PREVIEW], previous_response_id: first.id, input: [screenshot(call.call_id as string)] });
  const listed = await openai.responses.inputItems.list(next.id, { order: 'asc' });
  return { status: first.status, call: { type: call.type, action: call.action, checks: call.pending_safety_checks }, answer: next.output_text, listed: listed.data.map((i) => i.type) };
}

/** The GA tool, streamed and not stored, then replayed statelessly with the screenshot; a model that does not see refuses it. */
export async function gaStreamedReplayed() {
  const openai = client();
  const events: ResponseStreamEvent[] = [];
  for await (const e of await openai.responses.create({ model: VISION, tools: [{ type: 'computer' }], input: ASKED, stream: true, store: false })) events.push(e);
  const done = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
  const call = done.response.output[0] as unknown as Item;
  const replayInput = [{ role: 'user' as const, content: ASKED }, ...(done.response.output as never[]), screenshot(call.call_id as string)];
  const replay = await openai.responses.create({ model: VISION, tools: [{ type: 'computer' }], input: replayInput });
  const blind = await caught(() => openai.responses.create({ model: 'test-scripted', tools: [{ type: 'computer' }], input: replayInput }));
  return {
    announced: events.flatMap((e) => (e.type === 'response.output_item.done' ? [e.item.type] : [])),
    last: done.type,
    answer: replay.output_text,
    blind: blind && { status: blind.status, message: blind.message },
  };
}

/** Over the WebSocket: the call in one turn, the screenshot in the chained turn. */
export async function overWebSocket() {
  const ws = new PageResponsesWS(client());
  const turn = async (body: Record<string, unknown>) => {
    ws.send({ type: 'response.create', ...body } as never);
    for await (const message of ws.stream()) {
      if (message.type !== 'message') continue;
      const event = message.message as { type: string; response?: { id: string; output: Item[] } };
      if (event.type === 'response.completed' || event.type === 'response.failed' || event.type === 'error') return event;
    }
    throw new Error('socket closed mid-turn');
  };
  const first = await turn({ model: VISION, tools: [PREVIEW], input: ASKED });
  const call = first.response!.output[0]!;
  const second = await turn({ model: VISION, tools: [PREVIEW], previous_response_id: first.response!.id, input: [screenshot(call.call_id as string)] });
  ws.close();
  const text = second.response?.output.flatMap((i) => (i.type === 'message' ? [(i.content as Array<{ text: string }>)[0]!.text] : [])).join('');
  return { first: kinds(first.response!.output), action: call.action, second: second.type, text };
}
