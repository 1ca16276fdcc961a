/**
 * `input_file` parts through the real `openai` SDK: by `file_id`, or inline `file_data` (a
 * base64 PDF data URL, as the Open Responses compliance suite sends one) with its `filename`;
 * the model is shown the extracted text (test-scripted echoes what it was given).
 */
import { expect, test } from 'vitest';
import { toFile } from 'openai';
import { failed, clientsWithFiles } from '../support/local-client';
import { makePdf } from '../fixtures/make-documents';

const client = clientsWithFiles();

test('a PDF by file_id and one inline as a data URL: the model reads their text; the parts are stored as sent', async () => {
  const { client: sdk } = await client();
  const uploaded = await sdk.files.create({ file: await toFile(makePdf(['Kiwis are flightless birds.']), 'kiwi.pdf'), purpose: 'user_data' });
  const inline = `data:application/pdf;base64,${Buffer.from(makePdf(['Penguins swim fast.'])).toString('base64')}`;
  const response = await sdk.responses.create({
    model: 'test-scripted',
    input: [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Compare' },
          { type: 'input_file', file_id: uploaded.id },
          { type: 'input_file', file_data: inline, filename: 'penguin.pdf' },
        ],
      },
    ],
  });
  expect(response.output_text).toBe('You said: Compare\n[File: kiwi.pdf]\nKiwis are flightless birds.\n[End of file: kiwi.pdf]\n[File: penguin.pdf]\nPenguins swim fast.\n[End of file: penguin.pdf]');
  const items = await sdk.responses.inputItems.list(response.id);
  const message = items.data[0];
  if (message?.type !== 'message') throw new Error('no message');
  expect(message.content).toEqual([
    { type: 'input_text', text: 'Compare' },
    { type: 'input_file', file_id: uploaded.id },
    { type: 'input_file', file_id: null, filename: 'penguin.pdf', file_data: inline },
  ]);
  // A later turn still shows the file (its text was kept; the parts are read again).
  const next = await sdk.responses.create({ model: 'test-scripted', previous_response_id: response.id, input: 'and?', include: [] });
  expect(next.usage!.input_tokens).toBeGreaterThan(response.usage!.input_tokens);
});

test('file_url is refused (nothing is fetched), an unknown file_id is a 404, unreadable data a 400 naming the part', async () => {
  const { client: sdk } = await client();
  const url = await failed(sdk.responses.create({ model: 'test-scripted', input: [{ role: 'user', content: [{ type: 'input_file', file_url: 'https://example.com/a.pdf' }] }] }));
  expect(url.status).toBe(400);
  expect(url.param).toBe('input[0].content[0].file_url');
  const unknown = await failed(sdk.responses.create({ model: 'test-scripted', input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file_nope' }] }] }));
  expect(unknown.status).toBe(404);
  expect(unknown.param).toBe('input[0].content[0].file_id');
  const broken = await failed(
    sdk.responses.create({ model: 'test-scripted', input: [{ role: 'user', content: [{ type: 'input_file', file_data: 'data:text/plain;base64,//79', filename: 'bad.txt' }] }] }),
  );
  expect(broken.status).toBe(400);
  expect(broken.message).toMatch(/bad\.txt.*UTF-8/);
  const noName = await failed(sdk.responses.create({ model: 'test-scripted', input: [{ role: 'user', content: [{ type: 'input_file', file_data: 'aGk=' }] }] }));
  expect(noName.param).toBe('input[0].content[0].filename');
});

test('a file too long for the context window is a 400 that says to use file search', async () => {
  const { client: sdk } = await client();
  const long = await sdk.files.create({ file: await toFile(new TextEncoder().encode('word '.repeat(40_000)), 'long.txt'), purpose: 'user_data' });
  const err = await failed(sdk.responses.create({ model: 'test-scripted', input: [{ role: 'user', content: [{ type: 'input_file', file_id: long.id }] }] }));
  expect(err.status).toBe(400);
  expect(err.code).toBe('context_length_exceeded');
  expect(err.message).toMatch(/file_search/);
});
