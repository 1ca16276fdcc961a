/**
 * `reasoning.summary` (issue 13, item 1): the AI SDK, LangChain and the Agents SDK read
 * reasoning only from `summary_text` parts and the `reasoning_summary_*` events. The
 * summary is the model's reasoning text; the raw `reasoning_text` content stays as it is.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { CONCISE_SUMMARY_CHARS } from '../../src/server/run/reasoning-summary';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

let local: LocalClient;
beforeEach(async () => {
  local = await localClient();
});
afterEach(() => closeAndCheck(local));

const model = 'test-scripted';
const thought = '\nAdd 2 and 2: that is 4.\n';
const input = script(`<think>${thought}</think>It is 4.`);

test('plain: the reasoning item carries the reasoning as a summary_text part, and a retrieve shows the same', async () => {
  const response = await local.client.responses.create({ model, input, reasoning: { summary: 'auto' } });
  expect(response.reasoning).toEqual({ effort: null, summary: 'auto' });
  const [reasoning, message] = response.output;
  expect(reasoning).toMatchObject({
    type: 'reasoning',
    summary: [{ type: 'summary_text', text: 'Add 2 and 2: that is 4.\n' }],
    content: [{ type: 'reasoning_text', text: thought }],
  });
  expect(message).toMatchObject({ type: 'message' });
  expect((await local.client.responses.retrieve(response.id)).output[0]).toEqual(reasoning);
});

test('streamed: summary events in OpenAI order, while the reasoning streams', async () => {
  const stream = await local.client.responses.create({ model, input, reasoning: { effort: 'medium', summary: 'detailed' }, stream: true });
  const events = [];
  for await (const event of stream) events.push(event);
  const reasoningId = events.find((e) => e.type === 'response.output_item.added')!.item.id;
  const ofReasoning = events.filter((e) => 'item_id' in e ? e.item_id === reasoningId : 'item' in e && e.item.id === reasoningId);
  const types = ofReasoning.map((e) => e.type).filter((t, i, all) => t !== all[i - 1]);
  expect(types).toEqual([
    'response.output_item.added',
    'response.content_part.added',
    'response.reasoning_text.delta',
    'response.reasoning_summary_part.added',
    ...Array.from({ length: types.length - 10 }, (_, i) => (i % 2 === 0 ? 'response.reasoning_summary_text.delta' : 'response.reasoning_text.delta')),
    'response.reasoning_summary_text.delta',
    'response.reasoning_text.done',
    'response.content_part.done',
    'response.reasoning_summary_text.done',
    'response.reasoning_summary_part.done',
    'response.output_item.done',
  ]);
  const deltas = ofReasoning.flatMap((e) => (e.type === 'response.reasoning_summary_text.delta' ? [e.delta] : []));
  expect(deltas.length).toBeGreaterThan(1);
  const done = ofReasoning.find((e) => e.type === 'response.reasoning_summary_text.done');
  expect(done).toMatchObject({ summary_index: 0, text: deltas.join('') });
  expect(deltas.join('')).toBe('Add 2 and 2: that is 4.\n');
  const itemDone = ofReasoning.at(-1);
  expect(itemDone).toMatchObject({ item: { summary: [{ type: 'summary_text', text: deltas.join('') }], content: [{ type: 'reasoning_text', text: thought }] } });
  const completed = events.at(-1);
  expect(completed).toMatchObject({ type: 'response.completed', response: { reasoning: { effort: 'medium', summary: 'detailed' } } });
});

test('concise cuts a long reasoning; auto keeps it whole', async () => {
  const long = 'I think about it. '.repeat(60);
  const concise = await local.client.responses.create({ model, input: script(`<think>${long}</think>Done.`, { chunk: 50 }), reasoning: { summary: 'concise' } });
  const summary = concise.output[0]!.type === 'reasoning' ? concise.output[0]!.summary[0]!.text : '';
  expect(summary).toBe(`${long.slice(0, CONCISE_SUMMARY_CHARS)}…`);
  const auto = await local.client.responses.create({ model, input: script(`<think>${long}</think>Done.`, { chunk: 50 }), reasoning: { summary: 'auto' } });
  expect(auto.output[0]).toMatchObject({ summary: [{ text: long }] });
});

test('without reasoning.summary there are no summaries and no summary events', async () => {
  const stream = await local.client.responses.create({ model, input, stream: true });
  const types: string[] = [];
  let last;
  for await (const event of stream) {
    types.push(event.type);
    last = event;
  }
  expect(types.some((t) => t.includes('summary'))).toBe(false);
  expect(last).toMatchObject({ response: { reasoning: null, output: [{ type: 'reasoning', summary: [] }, { type: 'message' }] } });
});
