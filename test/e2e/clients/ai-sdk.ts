/**
 * The Vercel AI SDK (`ai` + `@ai-sdk/openai`, its Responses API provider) in the page, on
 * `test-scripted` through this origin's `/v1`. Each scenario returns plain data the test
 * asserts on.
 */
import { createOpenAI, type OpenAILanguageModelResponsesOptions } from '@ai-sdk/openai';
import { generateText, isStepCount, Output, streamText, tool } from 'ai';
import { z } from 'zod';
import { baseURL, caught, MODEL, recordingFetch, script, toolCall, weatherLookup, type RecordedRequest } from './scenario-kit';

function setup() {
  const requests: RecordedRequest[] = [];
  const toolCalls: unknown[] = [];
  const openai = createOpenAI({ baseURL: baseURL(), apiKey: 'local', fetch: recordingFetch(requests) });
  const tools = {
    get_weather: tool({
      description: 'Current weather of a city',
      inputSchema: z.object({ city: z.string() }),
      execute: weatherLookup(toolCalls),
    }),
  };
  // maxRetries 0: a failure must surface, not be retried.
  return { model: openai.responses(MODEL), tools, requests, toolCalls, maxRetries: 0 };
}

/**
 * A local model is not one of OpenAI's names, so the provider would treat it as a
 * non-reasoning model and drop reasoning options; `forceReasoning` says it reasons.
 */
function reasoningOptions(extra: OpenAILanguageModelResponsesOptions = {}): { openai: OpenAILanguageModelResponsesOptions } {
  return { openai: { forceReasoning: true, reasoningSummary: 'auto', ...extra } };
}

const weatherScript = [toolCall('get_weather', { city: 'Paris' }), 'Paris is clear.'];

export async function toolRoundTrip() {
  const { model, tools, toolCalls, requests, maxRetries } = setup();
  const result = await generateText({ model, tools, maxRetries, stopWhen: isStepCount(2), prompt: script(weatherScript) });
  return { text: result.text, toolCalls, steps: result.steps.length, inputTypes: inputTypes(requests.at(-1)) };
}

export async function toolRoundTripStreamed() {
  const { model, tools, toolCalls, maxRetries } = setup();
  const result = streamText({ model, tools, maxRetries, stopWhen: isStepCount(2), prompt: script(weatherScript, { chunk: 3 }) });
  const parts: string[] = [];
  const textDeltas: string[] = [];
  for await (const part of result.fullStream) {
    if (['tool-call', 'tool-result', 'finish-step'].includes(part.type)) parts.push(part.type);
    if (part.type === 'text-delta') textDeltas.push(part.text);
  }
  return { text: await result.text, toolCalls, parts, textDeltas };
}

export async function multiStep() {
  const { model, tools, toolCalls, maxRetries } = setup();
  const steps = [toolCall('get_weather', { city: 'Paris' }), toolCall('get_weather', { city: 'Oslo' }), 'Paris is clear, Oslo has rain.'];
  const result = await generateText({ model, tools, maxRetries, stopWhen: isStepCount(5), prompt: script(steps) });
  return { text: result.text, toolCalls, steps: result.steps.length };
}

export async function structuredOutput() {
  const { model, requests, maxRetries } = setup();
  const result = await generateText({
    model,
    maxRetries,
    output: Output.object({ schema: z.object({ city: z.string(), celsius: z.number() }) }),
    prompt: script('{"city": "Paris", "celsius": 21}'),
  });
  const format = (requests[0]?.body?.text as { format?: { type?: string } } | undefined)?.format?.type;
  return { output: result.output, format };
}

const thinking = script('<think>The user wants a greeting.</think>Hello!');

export async function reasoning() {
  const { model, maxRetries, requests } = setup();
  const result = await generateText({ model, maxRetries, providerOptions: reasoningOptions(), prompt: thinking });
  return { text: result.text, reasoningText: result.reasoningText, sentReasoning: requests[0]?.body?.reasoning };
}

export async function reasoningStreamed() {
  const { model, maxRetries } = setup();
  const result = streamText({ model, maxRetries, providerOptions: reasoningOptions(), prompt: thinking });
  const reasoningDeltas: string[] = [];
  for await (const part of result.fullStream) {
    if (part.type === 'reasoning-delta') reasoningDeltas.push(part.text);
  }
  return { text: await result.text, reasoningDeltas, reasoningText: await result.reasoningText };
}

/**
 * Stateless chain: `store: false`, so the provider cannot refer to earlier items by id and
 * sends the reasoning back as its encrypted content instead.
 */
export async function statelessEncryptedReasoning() {
  const { model, tools, toolCalls, requests, maxRetries } = setup();
  const steps = [`<think>Weather needs a lookup.</think>${toolCall('get_weather', { city: 'Paris' })}`, 'Paris is clear.'];
  const result = await generateText({
    model,
    tools,
    maxRetries,
    stopWhen: isStepCount(2),
    providerOptions: reasoningOptions({ store: false }),
    prompt: script(steps),
  });
  const second = requests[1]?.body;
  const carried = ((second?.input as { type?: string; encrypted_content?: string }[] | undefined) ?? []).filter((item) => item.type === 'reasoning');
  return {
    text: result.text,
    toolCalls,
    firstRequest: { store: requests[0]?.body?.store, include: requests[0]?.body?.include },
    carriedEncrypted: carried.map((item) => typeof item.encrypted_content === 'string' && item.encrypted_content.length > 0),
    // store: false: neither response may be retrievable afterwards.
    retrieveStatuses: await Promise.all(result.steps.map(async (step) => (await fetch(`${baseURL()}/responses/${step.response.id}`)).status)),
  };
}

/** Logprobs as the provider asks for them (`top_logprobs` + the include), as it returns them; the error if refused. */
export async function logprobs() {
  const { model, maxRetries, requests } = setup();
  let text: string | undefined;
  let logprobs: { token: string; logprob: number; top_logprobs: unknown[] }[][] | undefined;
  const error = await caught(async () => {
    const result = await generateText({ model, maxRetries, providerOptions: { openai: { logprobs: 2 } }, prompt: script('Hi there') });
    text = result.text;
    logprobs = result.providerMetadata?.openai?.logprobs as typeof logprobs;
  });
  return { text, logprobs, error, sent: { top_logprobs: requests[0]?.body?.top_logprobs, include: requests[0]?.body?.include } };
}

export async function failure() {
  const { model, maxRetries } = setup();
  return caught(() => generateText({ model, maxRetries, prompt: script('this answer breaks off', { fail_after: 2 }) }));
}

export async function failureStreamed() {
  const { model, maxRetries } = setup();
  const reported: string[] = [];
  const errorParts: string[] = [];
  const result = streamText({ model, maxRetries, prompt: script('this answer breaks off', { fail_after: 2 }), onError: ({ error }) => void reported.push(String(error)) });
  for await (const part of result.fullStream) {
    if (part.type === 'error') errorParts.push(String(part.error));
  }
  return { reported, errorParts };
}

function inputTypes(request: RecordedRequest | undefined): string[] {
  return ((request?.body?.input as { type?: string; role?: string }[] | undefined) ?? []).map((item) => item.type ?? `message:${item.role}`);
}
