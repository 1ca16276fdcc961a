import { afterEach, beforeEach, expect, test } from 'vitest';
import { closeAndCheck, localClient, script, type LocalClient } from '../../test/support/local-client';
import type { StreamEvent } from './stream-events';
import { replayOutput } from './replay-output';

let local: LocalClient;
beforeEach(async () => {
  local = await localClient();
});
afterEach(() => closeAndCheck(local));

async function streamed(input: string): Promise<{ events: StreamEvent[]; output: unknown[] }> {
  const stream = await local.client.responses.create({ model: 'test-scripted', input, stream: true });
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event as unknown as StreamEvent);
  const last = events.at(-1) as Extract<StreamEvent, { type: 'response.completed' }>;
  return { events, output: last.response.output };
}

const TOOLS_AND_TEXT = script('<think>weigh it</think>The answer is <b>42</b>.<tool_call>{"name":"lookup","arguments":{"q":"x"}}</tool_call>', { chunk: 3 });

test('the whole log replays to exactly the output the response ended with', async () => {
  const stream = await local.client.responses.create({
    model: 'test-scripted',
    input: TOOLS_AND_TEXT,
    stream: true,
    tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } }, strict: false }],
  });
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event as unknown as StreamEvent);
  const last = events.at(-1) as Extract<StreamEvent, { type: 'response.completed' }>;
  expect(last.type).toBe('response.completed');
  expect(last.response.output.map((i) => i.type)).toEqual(['reasoning', 'message', 'function_call']);
  expect(replayOutput(events)).toEqual(last.response.output);
});

test('a log cut at any event keeps what was sent: finished items as sent, the open one partial and incomplete', async () => {
  const { events, output } = await streamed(script('<think>abc def</think>hello there world', { chunk: 2 }));
  const final = output as Array<{ type: string; content: Array<{ text: string }> }>;
  for (let cut = 1; cut < events.length; cut++) {
    const replayed = replayOutput(events.slice(0, cut)) as unknown as Array<{ type: string; status: string; content: Array<{ text: string }> }>;
    const sentText = events
      .slice(0, cut)
      .flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : []))
      .join('');
    const message = replayed.find((i) => i.type === 'message');
    expect(message?.content[0]?.text ?? '').toBe(sentText);
    const doneIndexes = new Set(events.slice(0, cut).flatMap((e) => (e.type === 'response.output_item.done' ? [e.output_index] : [])));
    replayed.forEach((item, index) => expect(item.status).toBe(doneIndexes.has(index) ? 'completed' : 'incomplete'));
    expect(replayed.length).toBeLessThanOrEqual(final.length);
  }
});
