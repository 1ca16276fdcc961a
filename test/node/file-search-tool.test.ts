/**
 * The `file_search` tool on `/v1/responses` through the real `openai` SDK: `test-scripted` calls
 * it with `{"queries": [...]}`, sees the passages numbered as sources, and cites them with
 * `[n]` markers that become `file_citation` annotations — plain, streamed, background,
 * chained and in a conversation.
 */
import { afterEach, expect, test } from 'vitest';
import { APIError, toFile } from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';
import { makePdf } from '../fixtures/make-documents';

const open: LocalClient[] = [];
afterEach(async () => {
  for (const local of open.splice(0)) await closeAndCheck(local);
});

async function withStore(): Promise<{ local: LocalClient; storeId: string; fileIds: Record<string, string> }> {
  const local = await localClient({ files: true });
  open.push(local);
  const sdk = local.client;
  const store = await sdk.vectorStores.create({ name: 'kb' });
  const batch = await sdk.vectorStores.fileBatches.uploadAndPoll(
    store.id,
    {
      files: [
        await toFile(makePdf(['Octopuses have three hearts and blue blood.']), 'octopus.pdf'),
        await toFile(new TextEncoder().encode('Giraffes sleep less than two hours a day.'), 'giraffe.txt'),
      ],
    },
    { pollIntervalMs: 5 },
  );
  expect(batch.file_counts.completed).toBe(2);
  const fileIds = Object.fromEntries((await sdk.files.list()).data.map((f) => [f.filename, f.id]));
  return { local, storeId: store.id, fileIds };
}

const call = (queries: string[]) => `<tool_call>{"name":"file_search","arguments":${JSON.stringify({ queries })}}</tool_call>`;

test('the model searches, sees numbered passages, and its [n] markers become file citations (plain)', async () => {
  const { local, storeId, fileIds } = await withStore();
  const response = await local.client.responses.create({
    model: 'test-scripted',
    input: script([call(['octopus hearts']), 'Octopuses have three hearts [1].']),
    tools: [{ type: 'file_search', vector_store_ids: [storeId] }],
    include: ['file_search_call.results'],
  });
  expect(response.status).toBe('completed');
  const [search, message] = response.output;
  expect(search).toMatchObject({ type: 'file_search_call', queries: ['octopus hearts'], status: 'completed' });
  if (search?.type !== 'file_search_call') throw new Error('no search');
  expect(search.results![0]).toMatchObject({ file_id: fileIds['octopus.pdf'], filename: 'octopus.pdf', text: 'Octopuses have three hearts and blue blood.' });
  expect(search.results![0]!.score).toBeGreaterThan(0);
  expect(response.output_text).toBe('Octopuses have three hearts.');
  if (message?.type !== 'message' || message.content[0]?.type !== 'output_text') throw new Error('no message');
  expect(message.content[0].annotations).toEqual([{ type: 'file_citation', file_id: fileIds['octopus.pdf'], filename: 'octopus.pdf', index: 27 }]);

  // Without the include, the results are not shown (but kept: a retrieve that includes them sees them).
  const plain = await local.client.responses.retrieve(response.id);
  expect(plain.output[0]).toMatchObject({ type: 'file_search_call', results: null });
  const included = await local.client.responses.retrieve(response.id, { include: ['file_search_call.results'] });
  expect(included.output[0]).toMatchObject({ results: [expect.objectContaining({ filename: 'octopus.pdf' })] });
});

test('streamed: the three search events in order between added and done, and the annotation as its own event', async () => {
  const { local, storeId, fileIds } = await withStore();
  const stream = await local.client.responses.create({
    model: 'test-scripted',
    input: script([call(['giraffe sleep']), 'Giraffes barely sleep [1], unlike octopuses [9].'], { chunk: 3 }),
    tools: [{ type: 'file_search', vector_store_ids: [storeId], max_num_results: 1 }],
    stream: true,
  });
  const events: ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  const types = events.map((e) => e.type);
  const added = types.indexOf('response.output_item.added');
  expect(types.slice(added, added + 5)).toEqual([
    'response.output_item.added',
    'response.file_search_call.in_progress',
    'response.file_search_call.searching',
    'response.file_search_call.completed',
    'response.output_item.done',
  ]);
  const deltas = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('');
  // The marker never reached the client; an unknown source ([9]) stays text.
  expect(deltas).toBe('Giraffes barely sleep, unlike octopuses [9].');
  const annotation = events.find((e) => e.type === 'response.output_text.annotation.added');
  expect(annotation).toMatchObject({ annotation_index: 0, annotation: { type: 'file_citation', file_id: fileIds['giraffe.txt'], filename: 'giraffe.txt', index: 21 } });
  const done = events.at(-1);
  if (done?.type !== 'response.completed') throw new Error('not completed');
  expect(done.response.output[0]).toMatchObject({ type: 'file_search_call', results: null });
});

test('background, chained with previous_response_id, and in a conversation', async () => {
  const { local, storeId, fileIds } = await withStore();
  const sdk = local.client;
  const tools = [{ type: 'file_search' as const, vector_store_ids: [storeId] }];
  const started = await sdk.responses.create({ model: 'test-scripted', input: script([call(['octopus hearts']), 'Three hearts [1].']), tools, background: true });
  let first = started;
  for (let i = 0; i < 200 && (first.status === 'queued' || first.status === 'in_progress'); i++) {
    await new Promise((r) => setTimeout(r, 10));
    first = await sdk.responses.retrieve(started.id);
  }
  expect(first.output_text).toBe('Three hearts.');
  const second = await sdk.responses.create({ model: 'test-scripted', previous_response_id: first.id, input: script([call(['giraffe']), 'Two hours [1]; hearts [1].']), tools });
  const message = second.output.find((i) => i.type === 'message');
  if (message?.type !== 'message' || message.content[0]?.type !== 'output_text') throw new Error('no message');
  // Numbers start again in each response: [1] is this response's first source.
  expect(message.content[0].annotations).toEqual([
    { type: 'file_citation', file_id: fileIds['giraffe.txt'], filename: 'giraffe.txt', index: 9 },
    { type: 'file_citation', file_id: fileIds['giraffe.txt'], filename: 'giraffe.txt', index: 17 },
  ]);
  const conversation = await sdk.conversations.create({});
  const inConversation = await sdk.responses.create({ model: 'test-scripted', conversation: conversation.id, input: script([call(['blue blood']), 'Blue [1].']), tools });
  expect(inConversation.output_text).toBe('Blue.');
  const items = await sdk.conversations.items.list(conversation.id, { order: 'asc' });
  expect(items.data.map((i) => i.type)).toEqual(['message', 'file_search_call', 'message']);
});

test('a vector store that does not exist is a 404 naming it; file_search next to a function of that name is refused', async () => {
  const { local, storeId } = await withStore();
  const missing = await local.client.responses.create({ model: 'test-scripted', input: 'hi', tools: [{ type: 'file_search', vector_store_ids: [storeId, 'vs_nope'] }] }).then(
    () => null,
    (e: unknown) => e as APIError,
  );
  expect(missing?.status).toBe(404);
  expect(missing?.param).toBe('tools[0].vector_store_ids[1]');
  const clash = await local.client.responses
    .create({ model: 'test-scripted', input: 'hi', tools: [{ type: 'file_search', vector_store_ids: [storeId] }, { type: 'function', name: 'file_search', parameters: {}, strict: false }] })
    .then(
      () => null,
      (e: unknown) => e as APIError,
    );
  expect(clash?.status).toBe(400);
});

test('retrieved passages are packed into the context left: whole chunks only, the rest left out', async () => {
  const local = await localClient({ files: true });
  open.push(local);
  const sdk = local.client;
  const store = await sdk.vectorStores.create({ name: 'big' });
  const paragraph = (i: number) => `Paragraph ${i} is about lanterns and ${'words '.repeat(2900)}`;
  await sdk.vectorStores.files.uploadAndPoll(store.id, await toFile(new TextEncoder().encode(Array.from({ length: 20 }, (_, i) => paragraph(i)).join('\n\n')), 'lanterns.txt'), { pollIntervalMs: 5 });
  const response = await sdk.responses.create({
    model: 'test-scripted',
    input: script([call(['lanterns']), 'Done.']),
    tools: [{ type: 'file_search', vector_store_ids: [store.id], max_num_results: 50 }],
    include: ['file_search_call.results'],
  });
  const search = response.output[0];
  if (search?.type !== 'file_search_call') throw new Error('no search');
  const shown = search.results!.reduce((sum, r) => sum + (r.text ?? '').length, 0);
  // test-scripted has a 32,768-token window (4 characters a token): the passages shown fit in it, whole.
  expect(search.results!.length).toBeGreaterThan(2);
  expect(search.results!.length).toBeLessThan(50);
  expect(shown / 4).toBeLessThan(32_768);
  expect(response.usage!.input_tokens).toBeLessThan(2 * 32_768);
});
