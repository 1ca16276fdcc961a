/**
 * LangChain (`@langchain/openai` ChatOpenAI on the Responses API) in the page, on
 * `test-scripted` through this origin's `/v1`. ChatOpenAI is a chat model, not an agent:
 * a tool round trip is the caller's loop (invoke → run the tool calls → invoke again), as
 * LangChain documents it. Each scenario returns plain data the test asserts on.
 */
import { AIMessageChunk, HumanMessage, type AIMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI, type ChatOpenAIFields } from '@langchain/openai';
import { z } from 'zod';
import { baseURL, caught, MODEL, recordingFetch, script, toolCall, weatherLookup, type RecordedRequest } from './scenario-kit';

function setup(fields: ChatOpenAIFields = {}) {
  const requests: RecordedRequest[] = [];
  const toolCalls: unknown[] = [];
  const llm = new ChatOpenAI({
    model: MODEL,
    useResponsesApi: true,
    apiKey: 'local',
    maxRetries: 0,
    configuration: { baseURL: baseURL(), dangerouslyAllowBrowser: true, fetch: recordingFetch(requests) },
    ...fields,
  });
  const getWeather = tool(weatherLookup(toolCalls), {
    name: 'get_weather',
    description: 'Current weather of a city',
    schema: z.object({ city: z.string() }),
  });
  return { llm, getWeather, requests, toolCalls };
}

/**
 * LangChain sends `reasoning` only for model names it knows as OpenAI reasoning models
 * (`_getReasoningParams`), so for a local model it goes in `modelKwargs`.
 */
const reasoningKwargs = { modelKwargs: { reasoning: { summary: 'auto' } } };

/** The tool loop a LangChain user writes: run every tool call, feed the results back. */
async function toolLoop(steps: string[], options: { stream?: boolean; fields?: ChatOpenAIFields; maxTurns?: number } = {}) {
  const { llm, getWeather, requests, toolCalls } = setup(options.fields);
  const model = llm.bindTools([getWeather]);
  const messages: BaseMessage[] = [new HumanMessage(script(steps, { chunk: 3 }))];
  const chunkCounts: number[] = [];
  for (let turn = 0; turn < (options.maxTurns ?? 5); turn++) {
    let reply: AIMessage;
    if (options.stream) {
      let merged: AIMessageChunk | undefined;
      let count = 0;
      for await (const chunk of await model.stream(messages)) {
        merged = merged ? merged.concat(chunk) : chunk;
        count++;
      }
      chunkCounts.push(count);
      reply = merged ?? new AIMessageChunk('');
    } else {
      reply = await model.invoke(messages);
    }
    messages.push(reply);
    if (!reply.tool_calls?.length) return { text: reply.text, toolCalls, turns: turn + 1, chunkCounts, requests };
    for (const call of reply.tool_calls) messages.push(await getWeather.invoke({ ...call, type: 'tool_call' }));
  }
  throw new Error('the model kept calling tools');
}

const weatherScript = [toolCall('get_weather', { city: 'Paris' }), 'Paris is clear.'];

export async function toolRoundTrip() {
  const { text, toolCalls, turns } = await toolLoop(weatherScript);
  return { text, toolCalls, turns };
}

export async function toolRoundTripStreamed() {
  const { text, toolCalls, turns, chunkCounts } = await toolLoop(weatherScript, { stream: true });
  return { text, toolCalls, turns, chunkCounts };
}

export async function multiStep() {
  const steps = [toolCall('get_weather', { city: 'Paris' }), toolCall('get_weather', { city: 'Oslo' }), 'Paris is clear, Oslo has rain.'];
  const { text, toolCalls, turns } = await toolLoop(steps);
  return { text, toolCalls, turns };
}

export async function structuredOutput() {
  const { llm, requests } = setup();
  const structured = llm.withStructuredOutput(z.object({ city: z.string(), celsius: z.number() }), { name: 'weather', method: 'jsonSchema' });
  const output = await structured.invoke([new HumanMessage(script('{"city": "Paris", "celsius": 21}'))]);
  const format = (requests[0]?.body?.text as { format?: { type?: string } } | undefined)?.format?.type;
  return { output, format };
}

/** Reasoning as LangChain shows it: `reasoning` content blocks of the AI message. */
function reasoningOf(message: AIMessage): string[] {
  return message.contentBlocks.flatMap((block) => (block.type === 'reasoning' ? [block.reasoning] : []));
}

const thinking = () => [new HumanMessage(script('<think>The user wants a greeting.</think>Hello!'))];

export async function reasoning() {
  const { llm, requests } = setup(reasoningKwargs);
  const reply = await llm.invoke(thinking());
  return { text: reply.text, reasoning: reasoningOf(reply), sentReasoning: requests[0]?.body?.reasoning };
}

export async function reasoningStreamed() {
  const { llm } = setup(reasoningKwargs);
  let merged: AIMessageChunk | undefined;
  const reasoningChunks: string[] = [];
  for await (const chunk of await llm.stream(thinking())) {
    // Each chunk's own content: the reasoning deltas as they arrive.
    if (Array.isArray(chunk.content)) {
      for (const part of chunk.content) if (part.type === 'reasoning' && typeof part.reasoning === 'string') reasoningChunks.push(part.reasoning);
    }
    merged = merged ? merged.concat(chunk) : chunk;
  }
  return { text: merged?.text, reasoningChunks, reasoning: merged ? reasoningOf(merged) : [] };
}

/**
 * Stateless chain: `zdrEnabled` (store: false) with the encrypted reasoning included, so
 * the second turn carries the reasoning back instead of referring to stored items.
 */
export async function statelessEncryptedReasoning() {
  const steps = [`<think>Weather needs a lookup.</think>${toolCall('get_weather', { city: 'Paris' })}`, 'Paris is clear.'];
  const fields: ChatOpenAIFields = { zdrEnabled: true, modelKwargs: { reasoning: { summary: 'auto' }, include: ['reasoning.encrypted_content'] } };
  const { text, toolCalls, requests } = await toolLoop(steps, { fields });
  const second = requests[1]?.body;
  const carried = ((second?.input as { type?: string; encrypted_content?: string }[] | undefined) ?? []).filter((item) => item.type === 'reasoning');
  return {
    text,
    toolCalls,
    firstRequest: { store: requests[0]?.body?.store, include: requests[0]?.body?.include },
    carriedEncrypted: carried.map((item) => typeof item.encrypted_content === 'string' && item.encrypted_content.length > 0),
  };
}

/**
 * ChatOpenAI's `logprobs`/`topLogprobs` fields are sent on Chat Completions only; on the
 * Responses API they go in `modelKwargs`. Returns the error if refused.
 */
export async function logprobs() {
  const { llm, requests } = setup({ modelKwargs: { top_logprobs: 2, include: ['message.output_text.logprobs'] } });
  let text: string | undefined;
  let logprobs: { token: string; logprob: number; top_logprobs: unknown[] }[] | undefined;
  const error = await caught(async () => {
    const reply = await llm.invoke([new HumanMessage(script('Hi there'))]);
    text = reply.text;
    logprobs = reply.response_metadata.logprobs as typeof logprobs;
  });
  return { text, logprobs, error, sent: { top_logprobs: requests[0]?.body?.top_logprobs, include: requests[0]?.body?.include } };
}

export async function failure() {
  const { llm } = setup();
  return caught(() => llm.invoke([new HumanMessage(script('this answer breaks off', { fail_after: 2 }))]));
}

/**
 * LangChain's Responses stream converter has no case for `response.failed` (only the
 * non-streamed path checks `response.error`), so a failed stream ends like a short answer.
 */
export async function failureStreamed() {
  const { llm } = setup();
  let merged: AIMessageChunk | undefined;
  const thrown = await caught(async () => {
    for await (const chunk of await llm.stream([new HumanMessage(script('this answer breaks off', { fail_after: 2 }))])) {
      merged = merged ? merged.concat(chunk) : chunk;
    }
  });
  return { thrown, text: merged?.text ?? '' };
}
