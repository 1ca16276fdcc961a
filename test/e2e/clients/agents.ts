/**
 * The OpenAI Agents SDK (`@openai/agents`) in the page, on `test-scripted` through this
 * origin's `/v1`. Each scenario returns plain data the test asserts on.
 */
import { Agent, OpenAIResponsesModel, run, setTracingDisabled, tool, type ModelSettings } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';
import { baseURL, caught, MODEL, recordingFetch, script, toolCall, weatherLookup, type RecordedRequest } from './scenario-kit';

// Tracing would export spans to api.openai.com.
setTracingDisabled(true);

function setup(settings: { tools?: boolean; outputType?: z.ZodObject; modelSettings?: ModelSettings } = {}) {
  const requests: RecordedRequest[] = [];
  const toolCalls: unknown[] = [];
  const client = new OpenAI({ baseURL: baseURL(), apiKey: 'local', dangerouslyAllowBrowser: true, maxRetries: 0, fetch: recordingFetch(requests) });
  const getWeather = tool({
    name: 'get_weather',
    description: 'Current weather of a city',
    parameters: z.object({ city: z.string() }),
    execute: weatherLookup(toolCalls),
  });
  const agent = new Agent({
    name: 'Weather',
    instructions: 'Answer with the weather.',
    model: new OpenAIResponsesModel(client, MODEL),
    tools: settings.tools === false ? [] : [getWeather],
    ...(settings.outputType ? { outputType: settings.outputType } : {}),
    ...(settings.modelSettings ? { modelSettings: settings.modelSettings } : {}),
  });
  return { agent, requests, toolCalls };
}

const weatherScript = [toolCall('get_weather', { city: 'Paris' }), 'Paris is clear.'];

export async function toolRoundTrip() {
  const { agent, requests, toolCalls } = setup();
  const result = await run(agent, script(weatherScript));
  return { finalOutput: result.finalOutput, toolCalls, items: result.newItems.map((item) => item.type), requests: requests.length };
}

export async function toolRoundTripStreamed() {
  const { agent, toolCalls } = setup();
  const stream = await run(agent, script(weatherScript, { chunk: 3 }), { stream: true });
  const textDeltas: string[] = [];
  const runEvents: string[] = [];
  for await (const event of stream) {
    if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') textDeltas.push(event.data.delta);
    if (event.type === 'run_item_stream_event') runEvents.push(event.name);
  }
  await stream.completed;
  return { finalOutput: stream.finalOutput, toolCalls, textDeltas, runEvents };
}

export async function multiStep() {
  const { agent, toolCalls } = setup();
  const steps = [toolCall('get_weather', { city: 'Paris' }), toolCall('get_weather', { city: 'Oslo' }), 'Paris is clear, Oslo has rain.'];
  const result = await run(agent, script(steps), { maxTurns: 5 });
  return { finalOutput: result.finalOutput, toolCalls, responses: result.rawResponses.length };
}

export async function structuredOutput() {
  const { agent, requests } = setup({ tools: false, outputType: z.object({ city: z.string(), celsius: z.number() }) });
  const result = await run(agent, script('{"city": "Paris", "celsius": 21}'));
  const format = (requests[0]?.body?.text as { format?: { type?: string } } | undefined)?.format?.type;
  return { finalOutput: result.finalOutput, format };
}

/** Reasoning as the SDK shows it: a `reasoning_item` whose content is the summary. */
export async function reasoning(modelSettings?: ModelSettings) {
  const { agent } = setup({ tools: false, modelSettings });
  const result = await run(agent, script('<think>The user wants a greeting.</think>Hello!'));
  const reasoningItems = result.newItems.filter((item) => item.type === 'reasoning_item');
  return {
    finalOutput: result.finalOutput,
    summaries: reasoningItems.flatMap((item) => item.rawItem.content.map((part) => part.text)),
    rawReasoning: reasoningItems.flatMap((item) => {
      const content = item.rawItem.providerData?.content as { text: string }[] | undefined;
      return (content ?? []).map((part) => part.text);
    }),
  };
}

export async function reasoningStreamed(modelSettings?: ModelSettings) {
  const { agent } = setup({ tools: false, modelSettings });
  const stream = await run(agent, script('<think>The user wants a greeting.</think>Hello!'), { stream: true });
  const summaryDeltas: string[] = [];
  const runEvents: string[] = [];
  for await (const event of stream) {
    if (event.type === 'raw_model_stream_event' && event.data.type === 'model') {
      const raw = event.data.event as { type?: string; delta?: string };
      if (raw.type === 'response.reasoning_summary_text.delta' && raw.delta) summaryDeltas.push(raw.delta);
    }
    if (event.type === 'run_item_stream_event') runEvents.push(event.name);
  }
  await stream.completed;
  return { finalOutput: stream.finalOutput, summaryDeltas, runEvents };
}

/**
 * Stateless chain: `store: false` with the encrypted reasoning included; the SDK keeps the
 * conversation itself and sends the reasoning item (with its encrypted content) back.
 */
export async function statelessEncryptedReasoning() {
  const { agent, requests, toolCalls } = setup({
    modelSettings: { store: false, reasoning: { summary: 'auto' }, providerData: { include: ['reasoning.encrypted_content'] } },
  });
  const steps = [`<think>Weather needs a lookup.</think>${toolCall('get_weather', { city: 'Paris' })}`, 'Paris is clear.'];
  const result = await run(agent, script(steps));
  const second = requests[1]?.body;
  const carried = ((second?.input as { type?: string; encrypted_content?: string }[] | undefined) ?? []).filter((item) => item.type === 'reasoning');
  return {
    finalOutput: result.finalOutput,
    toolCalls,
    firstRequest: { store: requests[0]?.body?.store, include: requests[0]?.body?.include },
    previousResponseIds: requests.map((r) => r.body?.previous_response_id ?? null),
    carriedEncrypted: carried.map((item) => typeof item.encrypted_content === 'string' && item.encrypted_content.length > 0),
  };
}

/** Logprobs asked for through providerData; the error if refused. */
export async function logprobs() {
  const { agent } = setup({ tools: false, modelSettings: { providerData: { top_logprobs: 2, include: ['message.output_text.logprobs'] } } });
  return caught(() => run(agent, script('Hi there')));
}

export async function failure() {
  const { agent } = setup({ tools: false });
  return caught(() => run(agent, script('this answer breaks off', { fail_after: 2 })));
}

export async function failureStreamed() {
  const { agent } = setup({ tools: false });
  return caught(async () => {
    const stream = await run(agent, script('this answer breaks off', { fail_after: 2 }), { stream: true });
    for await (const _event of stream) {
      // drained: the failure surfaces from the iteration or from `completed`
    }
    await stream.completed;
  });
}
