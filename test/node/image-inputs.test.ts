/**
 * `input_image` parts, in messages and in tool outputs: they reach a model that sees
 * (`test-scripted-vision`, whose echo counts them), and to one that cannot they are a 400
 * naming the model and the part — never dropped. `/v1/models` says which models take images.
 */
import { afterEach, expect, test } from 'vitest';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';
import { RecordingEngine } from '../fakes/recording-engine';

let local: LocalClient | undefined;
afterEach(async () => {
  if (local) await closeAndCheck(local);
  local = undefined;
});

const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const withImage = (text: string) => [{ role: 'user' as const, content: [{ type: 'input_text' as const, text }, { type: 'input_image' as const, image_url: png, detail: 'auto' as const }] }];
type Err = { status: number; error: { param: string; message: string } };

test('/v1/models says which models take images', async () => {
  local = await localClient();
  const models = (await local.client.models.list()).data as Array<{ id: string; input_modalities?: string[] }>;
  expect(Object.fromEntries(models.map((m) => [m.id, m.input_modalities]))).toEqual({ 'test-scripted': ['text'], 'test-scripted-vision': ['text', 'image'] });
});

test('an image reaches a model that sees, from a message and from a tool output', async () => {
  const engine = new RecordingEngine();
  local = await localClient({ engine });
  const seen = await local.client.responses.create({ model: 'test-scripted-vision', input: withImage('What is it?') });
  expect(seen.output_text).toBe('You said: What is it? [1 image]');
  expect(engine.requests.at(-1)!.input.messages.at(-1)!.images).toEqual([png]);

  const tools = [{ type: 'function' as const, name: 'snap', parameters: null, strict: false }];
  const first = await local.client.responses.create({ model: 'test-scripted-vision', input: script(['<tool_call>{"name": "snap", "arguments": {}}</tool_call>', 'A dot.']), tools });
  const callId = (first.output[0] as { call_id: string }).call_id;
  const output = [{ type: 'input_text' as const, text: 'the photo' }, { type: 'input_image' as const, image_url: png, detail: 'low' as const }];
  const next = await local.client.responses.create({ model: 'test-scripted-vision', previous_response_id: first.id, tools, input: [{ type: 'function_call_output', call_id: callId, output }] });
  expect(next.output_text).toBe('A dot.');
  const toolTurn = engine.requests.at(-1)!.input.messages.at(-1)!;
  expect(toolTurn.content).toContain('<tool_response>\nthe photo\n</tool_response>');
  expect(toolTurn.images).toEqual([png]);
});

test('to a model that cannot see, an image is a 400 naming the model and the part: in a message, in a tool output, in the history it continues', async () => {
  local = await localClient();
  const inMessage = (await local.client.responses.create({ model: 'test-scripted', input: withImage('What is it?') }).catch((e: unknown) => e)) as Err;
  expect(inMessage).toMatchObject({ status: 400, error: { param: 'input[0].content[1]' } });
  expect(inMessage.error.message).toMatch(/^The model 'test-scripted' cannot see images: 'input\[0\]\.content\[1\]' is an image/);

  const tools = [{ type: 'function' as const, name: 'snap', parameters: null, strict: false }];
  const first = await local.client.responses.create({ model: 'test-scripted', input: script('<tool_call>{"name": "snap", "arguments": {}}</tool_call>'), tools });
  const callId = (first.output[0] as { call_id: string }).call_id;
  const output = [{ type: 'input_text' as const, text: 'the photo' }, { type: 'input_image' as const, image_url: png }];
  const inOutput = (await local.client.responses.create({ model: 'test-scripted', previous_response_id: first.id, tools, input: [{ type: 'function_call_output', call_id: callId, output }] }).catch((e: unknown) => e)) as Err;
  expect(inOutput).toMatchObject({ status: 400, error: { param: 'input[0].output[1]' } });

  const looked = await local.client.responses.create({ model: 'test-scripted-vision', input: withImage('Look') });
  const later = (await local.client.responses.create({ model: 'test-scripted', previous_response_id: looked.id, input: 'And now?' }).catch((e: unknown) => e)) as Err;
  expect(later).toMatchObject({ status: 400, error: { param: 'previous_response_id' } });
  expect(later.error.message).toMatch(/the conversation it continues has an image/);
});

test('an image named by file_id: an uploaded image is shown to a model that sees as its bytes; another file is a 400', async () => {
  const engine = new RecordingEngine();
  local = await localClient({ engine, files: true });
  const bytes = Buffer.from(png.slice(png.indexOf(',') + 1), 'base64');
  const image = await local.client.files.create({ file: new File([bytes], 'dot.png', { type: 'image/png' }), purpose: 'vision' });
  const seen = await local.client.responses.create({ model: 'test-scripted-vision', input: [{ role: 'user', content: [{ type: 'input_text', text: 'This?' }, { type: 'input_image', file_id: image.id, detail: 'auto' }] }] });
  expect(seen.output_text).toBe('You said: This? [1 image]');
  expect(engine.requests.at(-1)!.input.messages.at(-1)!.images).toEqual([png]);
  const text = await local.client.files.create({ file: new File(['hi'], 'a.txt', { type: 'text/plain' }), purpose: 'user_data' });
  const notImage = (await local.client.responses
    .create({ model: 'test-scripted-vision', input: [{ role: 'user', content: [{ type: 'input_image', file_id: text.id, detail: 'auto' }] }] })
    .catch((e: unknown) => e)) as Err;
  expect(notImage).toMatchObject({ status: 400, error: { param: 'input[0].content[0].file_id' } });
  const missing = (await local.client.responses
    .create({ model: 'test-scripted-vision', input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file_nope', detail: 'auto' }] }] })
    .catch((e: unknown) => e)) as Err;
  expect(missing).toMatchObject({ status: 404, error: { param: 'input[0].content[0].file_id' } });
});
