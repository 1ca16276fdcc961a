/**
 * The `openai` SDK's Responses helpers in the page: `responses.stream()` (its strict event
 * accumulator checks our event order and item identities) and `responses.parse()` with the
 * zod helpers, on `test-scripted` through this origin's `/v1`.
 */
import OpenAI from 'openai';
import { zodResponsesFunction, zodTextFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import { baseURL, caught, MODEL, recordingFetch, script, toolCall, weatherLookup, type RecordedRequest } from './scenario-kit';

function setup() {
  const requests: RecordedRequest[] = [];
  const client = new OpenAI({ baseURL: baseURL(), apiKey: 'local', dangerouslyAllowBrowser: true, maxRetries: 0, fetch: recordingFetch(requests) });
  return { client, requests };
}

const weatherTool = zodResponsesFunction({ name: 'get_weather', description: 'Current weather of a city', parameters: z.object({ city: z.string() }) });
const weatherScript = [toolCall('get_weather', { city: 'Paris' }), 'Paris is clear.'];

/** Tool round trip with `stream()`: events through `.on()`, then `finalResponse()`. */
export async function toolRoundTripStreamed() {
  const { client } = setup();
  const toolCalls: unknown[] = [];
  const run = weatherLookup(toolCalls);
  const argDeltas: string[] = [];
  const first = client.responses.stream({ model: MODEL, input: script(weatherScript, { chunk: 3 }), tools: [weatherTool] });
  first.on('response.function_call_arguments.delta', (event) => argDeltas.push(event.delta));
  const firstResponse = await first.finalResponse();
  const call = firstResponse.output.find((item) => item.type === 'function_call');
  if (!call || call.type !== 'function_call') throw new Error(`no function call in ${JSON.stringify(firstResponse.output)}`);
  const textDeltas: string[] = [];
  const second = client.responses.stream({
    model: MODEL,
    previous_response_id: firstResponse.id,
    tools: [weatherTool],
    input: [{ type: 'function_call_output', call_id: call.call_id, output: run(JSON.parse(call.arguments) as { city: string }) }],
  });
  second.on('response.output_text.delta', (event) => textDeltas.push(event.delta));
  const final = await second.finalResponse();
  return { toolCalls, argDeltas: argDeltas.join(''), textDeltas, text: final.output_text, status: final.status };
}

/** `parse()` with a zod function tool: the call's arguments come back parsed. */
export async function parsedToolCall() {
  const { client } = setup();
  const response = await client.responses.parse({ model: MODEL, input: script(weatherScript), tools: [weatherTool] });
  const call = response.output.find((item) => item.type === 'function_call');
  return { parsedArguments: call && 'parsed_arguments' in call ? call.parsed_arguments : null };
}

/** `parse()` with `zodTextFormat`: `output_parsed`. */
export async function structuredOutput() {
  const { client, requests } = setup();
  const response = await client.responses.parse({
    model: MODEL,
    input: script('{"city": "Paris", "celsius": 21}'),
    text: { format: zodTextFormat(z.object({ city: z.string(), celsius: z.number() }), 'weather') },
  });
  const format = (requests[0]?.body?.text as { format?: { type?: string } } | undefined)?.format?.type;
  return { outputParsed: response.output_parsed, format };
}

/** `stream()` with `text.format` parses the final response too. */
export async function structuredOutputStreamed() {
  const { client } = setup();
  const stream = client.responses.stream({
    model: MODEL,
    input: script('{"city": "Oslo", "celsius": 9}'),
    text: { format: zodTextFormat(z.object({ city: z.string(), celsius: z.number() }), 'weather') },
  });
  const final = await stream.finalResponse();
  return { outputParsed: final.output_parsed };
}

export async function reasoningStreamed() {
  const { client } = setup();
  const stream = client.responses.stream({ model: MODEL, input: script('<think>The user wants a greeting.</think>Hello!'), reasoning: { summary: 'auto' } });
  const summaryDeltas: string[] = [];
  stream.on('response.reasoning_summary_text.delta', (event) => summaryDeltas.push(event.delta));
  const final = await stream.finalResponse();
  const reasoning = final.output.find((item) => item.type === 'reasoning');
  return {
    text: final.output_text,
    summaryDeltas,
    summary: reasoning && reasoning.type === 'reasoning' ? reasoning.summary.map((part) => part.text) : [],
  };
}

/** Logprobs through `stream()`: how many each text delta carried, those of the final part; the error if refused. */
export async function logprobsStreamed() {
  const { client } = setup();
  const deltaLogprobs: number[] = [];
  let final: OpenAI.Responses.Response | undefined;
  const error = await caught(async () => {
    const stream = client.responses.stream({ model: MODEL, input: script('Hi there'), top_logprobs: 2, include: ['message.output_text.logprobs'] });
    stream.on('response.output_text.delta', (event) => deltaLogprobs.push(event.logprobs.length));
    final = await stream.finalResponse();
  });
  const response = final as OpenAI.Responses.Response | undefined;
  const message = response?.output.find((item) => item.type === 'message');
  const part = message && message.type === 'message' ? message.content[0] : undefined;
  return { text: response?.output_text, deltaLogprobs, logprobs: part && part.type === 'output_text' ? part.logprobs : undefined, error };
}

/**
 * A failed stream: the SDK's helper does not throw for `response.failed`; it resolves
 * `finalResponse()` with the failed response and its `error` (as for OpenAI's own API).
 */
export async function failureStreamed() {
  const { client } = setup();
  const types: string[] = [];
  let final: OpenAI.Responses.Response | null = null;
  const thrown = await caught(async () => {
    const stream = client.responses.stream({ model: MODEL, input: script('this answer breaks off', { fail_after: 2 }) });
    stream.on('event', (event) => types.push(event.type));
    final = await stream.finalResponse();
  });
  const response = final as OpenAI.Responses.Response | null;
  return { thrown, lastEvent: types.at(-1), status: response?.status, error: response?.error ?? null };
}
