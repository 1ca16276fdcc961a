/**
 * Compaction (issue 18, item 3) through the real `openai` SDK: `client.responses.compact`
 * returns the compacted window — the user messages, then a sealed `compaction` item whose
 * summary the model wrote — and a compaction item sent back shows the model that summary
 * instead of what it replaced. `context_management` on create compacts by itself when the
 * prompt would cross the threshold (or, without one, outgrow the context window), and the
 * output says so with a `compaction` item first. Every answer is checked against the Open
 * Responses document (`CompactResource`, `CompactionBody`) by local-client.ts.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ResponseCompactionItem, ResponseInputItem } from 'openai/resources/responses/responses';
import { SUMMARY_REQUEST } from '../../src/server/request/compaction';
import { SUMMARY_NOTE } from '../../src/server/request/compaction-window';
import { SmallContextEngine, SMALL_MODEL_ID } from '../fakes/small-context-engine';
import { closeAndCheck, localClient, type LocalClient } from '../support/local-client';
import { validateCompactResource, validateItem } from '../support/openresponses-validator';

const model = 'test-scripted';
/** What the scripted model writes when asked for a summary: it echoes the request. */
const SUMMARY = `You said: ${SUMMARY_REQUEST}`;

let local: LocalClient;
let engine: SmallContextEngine;
beforeEach(async () => {
  engine = new SmallContextEngine();
  local = await localClient({ engine });
});
afterEach(() => closeAndCheck(local));

const lastPrompt = () => engine.requests.at(-1)!.input.prompt;

const history: ResponseInputItem[] = [
  { role: 'user', content: 'My name is Alice.' },
  { role: 'assistant', content: 'Hello Alice, the platypus expert!' },
  { role: 'user', content: 'What is my name?' },
];

function compactionOf(output: ReadonlyArray<{ type: string }>): ResponseCompactionItem {
  const item = output.find((i): i is ResponseCompactionItem => i.type === 'compaction');
  if (!item) throw new Error(`no compaction item in ${JSON.stringify(output)}`);
  return item;
}

describe('POST /v1/responses/compact', () => {
  test('returns the user messages and a sealed compaction item the model wrote (CompactResource)', async () => {
    const compacted = await local.client.responses.compact({ model, input: history });
    validateCompactResource(compacted);
    expect(compacted.object).toBe('response.compaction');
    expect(compacted.output.map((i) => i.type)).toEqual(['message', 'message', 'compaction']);
    expect(compacted.output.slice(0, 2).map((i) => (i.type === 'message' ? i.role : null))).toEqual(['user', 'user']);
    const item = compactionOf(compacted.output);
    validateItem(item);
    expect(item.id).toMatch(/^cmp_/);
    expect(item.encrypted_content).toMatch(/^lc1\./);
    expect(item.encrypted_content).not.toContain('Alice');
    // The summary was a generation on the model, shown the whole conversation.
    const request = engine.requests.at(-1)!;
    expect(request.input.prompt).toContain('the platypus expert');
    expect(request.input.prompt).toContain(SUMMARY_REQUEST);
    expect(compacted.usage.output_tokens).toBeGreaterThan(0);
    expect(compacted.usage.input_tokens).toBe(Math.ceil(request.input.prompt.length / 4));
  });

  test('the compacted window as input shows the model the summary, not the turns it replaced', async () => {
    const compacted = await local.client.responses.compact({ model, input: history });
    const next = await local.client.responses.create({ model, input: [...(compacted.output as ResponseInputItem[]), { role: 'user', content: 'Go on.' }] });
    expect(next.status).toBe('completed');
    expect(next.output_text).toBe('You said: Go on.');
    expect(lastPrompt()).toContain(SUMMARY_NOTE + SUMMARY);
    expect(lastPrompt()).not.toContain('platypus');
    expect(lastPrompt()).toContain('What is my name?'); // user messages are kept as they were
  });

  test('a compaction item is accepted without its id and without created_by (CompactionSummaryItemParam)', async () => {
    const item = compactionOf((await local.client.responses.compact({ model, input: history })).output);
    const next = await local.client.responses.create({ model, input: [{ type: 'compaction', encrypted_content: item.encrypted_content }, { role: 'user', content: 'Hi again.' }] });
    expect(next.status).toBe('completed');
    expect(lastPrompt()).toContain(SUMMARY_NOTE + SUMMARY);
  });

  test('tampered or foreign encrypted_content is a 400 invalid_encrypted_content naming the item', async () => {
    const item = compactionOf((await local.client.responses.compact({ model, input: history })).output);
    const flipped = item.encrypted_content.slice(0, -6) + (item.encrypted_content.at(-6) === 'A' ? 'B' : 'A') + item.encrypted_content.slice(-5);
    for (const encrypted_content of [flipped, 'lc1.bm90IHNlYWxlZA==', 'plain text'])
      await expect(
        local.client.responses.create({ model, input: [{ role: 'user', content: 'x' }, { type: 'compaction', encrypted_content }, { role: 'user', content: 'y' }] }),
      ).rejects.toMatchObject({ status: 400, code: 'invalid_encrypted_content', param: 'input[1].encrypted_content' });

    // Sealed by another origin (another key): refused too, by create and by compact.
    const other = await localClient();
    try {
      await expect(other.client.responses.create({ model, input: [item, { role: 'user', content: 'y' }] })).rejects.toMatchObject({ status: 400, code: 'invalid_encrypted_content', param: 'input[0].encrypted_content' });
      await expect(other.client.responses.compact({ model, input: [item] })).rejects.toMatchObject({ status: 400, code: 'invalid_encrypted_content' });
    } finally {
      await closeAndCheck(other);
    }
  });

  test('compacts a previous_response_id chain, or a conversation, without changing either', async () => {
    const first = await local.client.responses.create({ model, input: 'The platypus lays eggs.' });
    const second = await local.client.responses.create({ model, input: 'And it glows.', previous_response_id: first.id });
    const fromChain = await local.client.responses.compact({ model, previous_response_id: second.id, input: 'Anything else?' });
    expect(fromChain.output.map((i) => i.type)).toEqual(['message', 'message', 'message', 'compaction']);
    expect(engine.requests.at(-1)!.input.prompt).toContain('You said: And it glows.');

    const conversation = await local.client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'The echidna too.' }] });
    await local.client.responses.create({ model, conversation: conversation.id, input: 'Really?' });
    // The SDK's compact params do not name `conversation` (OpenAI's reference does not yet); the body is what counts.
    const fromConversation = await local.client.responses.compact({ model, conversation: conversation.id } as Parameters<typeof local.client.responses.compact>[0]);
    expect(fromConversation.output.map((i) => i.type)).toEqual(['message', 'message', 'compaction']);
    expect(engine.requests.at(-1)!.input.prompt).toContain('You said: Really?');
    expect((await local.client.conversations.items.list(conversation.id)).data).toHaveLength(3);

    await expect(
      local.client.responses.compact({ model, previous_response_id: second.id, conversation: conversation.id } as Parameters<typeof local.client.responses.compact>[0]),
    ).rejects.toMatchObject({ status: 400, code: 'mutually_exclusive_parameters' });
  });

  test('nothing to compact, an unknown model or an unknown field are OpenAI-shaped errors', async () => {
    await expect(local.client.responses.compact({ model })).rejects.toMatchObject({ status: 400, code: 'missing_required_parameter', param: 'input' });
    await expect(local.client.responses.compact({ model: 'nope', input: 'x' })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    await expect(local.client.responses.compact({ model, input: 'x', image: { context_compression: 'enabled' } })).rejects.toMatchObject({ status: 400, param: 'image' });
    await expect(local.client.responses.compact({ model, input: 'x', temperature: 1 } as Parameters<typeof local.client.responses.compact>[0])).rejects.toMatchObject({
      status: 400,
      code: 'unknown_parameter',
    });
  });
});

describe('context_management on create', () => {
  const long = (n: number) => `Turn ${n}: ${'the platypus is a monotreme. '.repeat(12)}`;

  test('crossing compact_threshold compacts first: the output starts with the compaction item, then the answer', async () => {
    const first = await local.client.responses.create({ model, input: long(1) });
    const response = await local.client.responses.create({
      model,
      input: 'Short question.',
      previous_response_id: first.id,
      context_management: [{ type: 'compaction', compact_threshold: 100 }],
    });
    expect(response.output.map((i) => i.type)).toEqual(['compaction', 'message']);
    expect(response.output_text).toBe('You said: Short question.');
    // The summary was written from the older turn; the answer was generated from it and the newest turn.
    const [summaryCall, answerCall] = engine.requests.slice(-2);
    expect(summaryCall!.input.prompt).toContain('Turn 1');
    expect(answerCall!.input.prompt).not.toContain('Turn 1');
    expect(answerCall!.input.prompt).toContain(SUMMARY_NOTE + SUMMARY);
    expect(response.usage!.input_tokens).toBe(Math.ceil(summaryCall!.input.prompt.length / 4) + Math.ceil(answerCall!.input.prompt.length / 4));

    // The chain goes on from the summary: the compacted turn is not shown again.
    const after = await local.client.responses.create({ model, input: 'And now?', previous_response_id: response.id });
    expect(after.output.map((i) => i.type)).toEqual(['message']);
    expect(lastPrompt()).not.toContain('Turn 1');
    expect(lastPrompt()).toContain('Short question.');
    expect(lastPrompt()).toContain(SUMMARY_NOTE + SUMMARY);
  });

  test('under the threshold nothing is compacted', async () => {
    const response = await local.client.responses.create({ model, input: 'hi', context_management: [{ type: 'compaction', compact_threshold: 10_000 }] });
    expect(response.output.map((i) => i.type)).toEqual(['message']);
    expect(engine.requests).toHaveLength(1);
  });

  test('streamed: the compaction item is output 0, added and done before the answer', async () => {
    const first = await local.client.responses.create({ model, input: long(1) });
    const stream = await local.client.responses.create({
      model,
      input: 'Stream it.',
      previous_response_id: first.id,
      stream: true,
      context_management: [{ type: 'compaction', compact_threshold: 100 }],
    });
    const events: Array<{ type: string; output_index?: number; item?: { type: string } }> = [];
    for await (const event of stream) events.push(event);
    const added = events.filter((e) => e.type === 'response.output_item.added');
    expect(added.map((e) => [e.output_index, e.item!.type])).toEqual([
      [0, 'compaction'],
      [1, 'message'],
    ]);
    const done = events.find((e) => e.type === 'response.output_item.done' && e.item!.type === 'compaction')!;
    expect(events.indexOf(done)).toBeLessThan(events.indexOf(added[1]!));
  });

  test('in a conversation, the compaction item is appended with the turn and later turns read from it', async () => {
    const conversation = await local.client.conversations.create();
    await local.client.responses.create({ model, conversation: conversation.id, input: long(1) });
    const compacted = await local.client.responses.create({ model, conversation: conversation.id, input: 'Next.', context_management: [{ type: 'compaction', compact_threshold: 100 }] });
    expect(compacted.output[0]!.type).toBe('compaction');
    const items = await local.client.conversations.items.list(conversation.id, { order: 'asc' });
    expect(items.data.map((i) => i.type)).toEqual(['message', 'message', 'message', 'compaction', 'message']);
    await local.client.responses.create({ model, conversation: conversation.id, input: 'Last.' });
    expect(lastPrompt()).not.toContain('Turn 1');
    expect(lastPrompt()).toContain('Next.');
  });

  test('without a threshold, a long chat on a small-context model compacts instead of failing', async () => {
    const chat = async (contextManagement: boolean) => {
      let previous: string | undefined;
      const compactedAt: number[] = [];
      for (let turn = 1; turn <= 8; turn++) {
        const response = await local.client.responses.create({
          model: SMALL_MODEL_ID,
          input: long(turn),
          ...(previous ? { previous_response_id: previous } : {}),
          ...(contextManagement ? { context_management: [{ type: 'compaction' as const }] } : {}),
        });
        expect(response.output_text).toBe(`You said: ${long(turn)}`);
        if (response.output[0]!.type === 'compaction') compactedAt.push(turn);
        previous = response.id;
      }
      return compactedAt;
    };
    // Without context management the same chat outgrows the window: the test can fail.
    await expect(chat(false)).rejects.toMatchObject({ status: 400, code: 'context_length_exceeded' });
    const compactedAt = await chat(true);
    expect(compactedAt.length).toBeGreaterThanOrEqual(2);
    for (const request of engine.requests) expect(Math.ceil(request.input.prompt.length / 4)).toBeLessThanOrEqual(engine.contextWindow);
  });

  test('an unknown entry type or a bad threshold is a 400 naming it', async () => {
    await expect(local.client.responses.create({ model, input: 'x', context_management: [{ type: 'summarize' }] })).rejects.toMatchObject({ status: 400, param: 'context_management[0].type' });
    await expect(local.client.responses.create({ model, input: 'x', context_management: [{ type: 'compaction', compact_threshold: 0 }] })).rejects.toMatchObject({
      status: 400,
      param: 'context_management[0].compact_threshold',
    });
  });
});
