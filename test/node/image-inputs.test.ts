/**
 * `input_image` parts, in messages and in tool outputs: they reach a model that sees
 * (`test-scripted-vision`, whose echo counts them), and to one that cannot they are a 400
 * naming the model and the part — never dropped. `/v1/models` says which models take images.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';
import { RecordingEngine } from '../fakes/recording-engine';
import { createPolicyImageFetcher } from '../../src/tools/web/image-fetcher';

let local: LocalClient | undefined;
const hosts: http.Server[] = [];
afterEach(async () => {
  if (local) await closeAndCheck(local);
  local = undefined;
  for (const host of hosts.splice(0)) host.close();
});

const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const withImage = (text: string) => [{ role: 'user' as const, content: [{ type: 'input_text' as const, text }, { type: 'input_image' as const, image_url: png, detail: 'auto' as const }] }];
type Err = { status: number; code: string; error: { param: string; message: string } };

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

const pngBytes = () => Uint8Array.from(Buffer.from(png.slice(png.indexOf(',') + 1), 'base64'));
const APP_ORIGIN = 'http://local.test';

/** An image server on 127.0.0.1 (any path answers the PNG) that remembers every request. */
async function loopbackImageHost(): Promise<{ port: number; requests: string[] }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' });
    res.end(pngBytes());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hosts.push(server);
  return { port: (server.address() as AddressInfo).port, requests };
}

const imageMessage = (url: string) => [{ role: 'user' as const, content: [{ type: 'input_text' as const, text: 'What is it?' }, { type: 'input_image' as const, image_url: url, detail: 'auto' as const }] }];

test('an image URL other than data: or https: is a 400 naming the part, for any model, and nothing is fetched', async () => {
  const host = await loopbackImageHost();
  local = await localClient({ server: { imageFetcher: createPolicyImageFetcher({ policy: { appOrigin: APP_ORIGIN } }) } });
  for (const model of ['test-scripted-vision', 'test-scripted']) {
    const plain = (await local.client.responses.create({ model, input: imageMessage(`http://127.0.0.1:${host.port}/x.png`) }).catch((e: unknown) => e)) as Err;
    expect(plain).toMatchObject({ status: 400, code: 'invalid_value', error: { param: 'input[0].content[1].image_url' } });
    expect(plain.error.message).toBe(
      "Invalid 'input[0].content[1].image_url': http: URLs are not accepted. An image is a data: URL (data:image/png;base64,…), an https: URL (fetched by the runtime: public hosts only, up to 20 MB), or an uploaded image given as file_id instead of image_url.",
    );
  }
  const tools = [{ type: 'function' as const, name: 'snap', parameters: null, strict: false }];
  const first = await local.client.responses.create({ model: 'test-scripted-vision', input: script('<tool_call>{"name": "snap", "arguments": {}}</tool_call>'), tools });
  const callId = (first.output[0] as { call_id: string }).call_id;
  for (const url of ['file:///etc/passwd', `ftp://127.0.0.1:${host.port}/x.png`, 'x.png']) {
    const output = [{ type: 'input_text' as const, text: 'the photo' }, { type: 'input_image' as const, image_url: url }];
    const inOutput = (await local.client.responses.create({ model: 'test-scripted-vision', previous_response_id: first.id, tools, input: [{ type: 'function_call_output', call_id: callId, output }] }).catch((e: unknown) => e)) as Err;
    expect(inOutput, url).toMatchObject({ status: 400, error: { param: 'input[0].output[1].image_url' } });
  }
  // Nor can it be stored for a later turn to replay: a conversation's items are held to the same rule.
  const conversation = await local.client.conversations.create();
  const added = (await local.client.conversations.items.create(conversation.id, { items: imageMessage(`http://127.0.0.1:${host.port}/x.png`) }).catch((e: unknown) => e)) as Err;
  expect(added).toMatchObject({ status: 400, error: { param: 'items[0].content[1].image_url' } });
  expect(host.requests).toEqual([]);
});

test('an https: image URL on a loopback or private host is a 400 (invalid_image_url) saying why, plain or streamed, and nothing is fetched', async () => {
  const host = await loopbackImageHost();
  local = await localClient({ server: { imageFetcher: createPolicyImageFetcher({ policy: { appOrigin: APP_ORIGIN } }) } });
  const urls = [`https://127.0.0.1:${host.port}/x.png`, `https://localhost:${host.port}/x.png`, `https://[::ffff:127.0.0.1]:${host.port}/x.png`, 'https://10.0.0.1/x.png', 'https://169.254.169.254/latest/meta-data'];
  for (const url of urls)
    for (const stream of [false, true]) {
      const refused = (await local.client.responses.create({ model: 'test-scripted-vision', input: imageMessage(url), stream }).catch((e: unknown) => e)) as Err;
      expect(refused, url).toMatchObject({ status: 400, code: 'invalid_image_url', error: { param: 'input[0].content[1].image_url' } });
      expect(refused.error.message).toMatch(/^The image at 'input\[0\]\.content\[1\]\.image_url' could not be given to the model: https:\/\/.* is not fetched: .* is a (loopback|local host name|private|linkLocal)[^;]*; images are fetched from public hosts only\. Send its bytes as a data: URL/);
    }
  expect(host.requests).toEqual([]);
});

test('an https: image is fetched by the runtime and shown as a data: URL; stored as sent; fetched again when its turn is replayed, and noted once it is gone', async () => {
  const engine = new RecordingEngine();
  const fetched: string[] = [];
  let gone = false;
  const fetch: typeof globalThis.fetch = async (input) => {
    fetched.push(String(input));
    return gone ? new Response('gone', { status: 404, statusText: 'Not Found' }) : new Response(pngBytes(), { headers: { 'content-type': 'image/png' } });
  };
  local = await localClient({ engine, server: { imageFetcher: createPolicyImageFetcher({ policy: { appOrigin: APP_ORIGIN }, fetch }) } });
  const url = 'https://images.example/dot.png';
  const first = await local.client.responses.create({ model: 'test-scripted-vision', input: imageMessage(url) });
  expect(first.output_text).toBe('You said: What is it? [1 image]');
  expect(engine.requests.at(-1)!.input.messages.at(-1)!.images).toEqual([png]);
  const items = await local.client.responses.inputItems.list(first.id);
  expect(items.data[0]).toMatchObject({ content: [{ type: 'input_text' }, { type: 'input_image', image_url: url }] });

  const next = await local.client.responses.create({ model: 'test-scripted-vision', previous_response_id: first.id, input: 'And now?' });
  expect(next.output_text).toBe('You said: And now?');
  expect(engine.requests.at(-1)!.input.messages.find((m) => m.role === 'user')!.images).toEqual([png]);
  expect(fetched).toEqual([url, url]);

  gone = true;
  const later = await local.client.responses.create({ model: 'test-scripted-vision', previous_response_id: next.id, input: 'Still there?' });
  expect(later.status).toBe('completed');
  const replayed = engine.requests.at(-1)!.input.messages.find((m) => m.role === 'user')!;
  expect(replayed.images ?? []).toEqual([]);
  expect(replayed.content).toContain('[An image of an earlier message is not shown: https://images.example/dot.png answered HTTP 404 Not Found.]');
  const failing = (await local.client.responses.create({ model: 'test-scripted-vision', input: imageMessage(url) }).catch((e: unknown) => e)) as Err;
  expect(failing).toMatchObject({ status: 400, code: 'invalid_image_url', error: { param: 'input[0].content[1].image_url' } });
  expect(failing.error.message).toContain('https://images.example/dot.png answered HTTP 404 Not Found');
});

test('without an image fetcher, an https: image is a 400 saying so', async () => {
  local = await localClient();
  const refused = (await local.client.responses.create({ model: 'test-scripted-vision', input: imageMessage('https://images.example/dot.png') }).catch((e: unknown) => e)) as Err;
  expect(refused).toMatchObject({ status: 400, code: 'invalid_image_url', error: { param: 'input[0].content[1].image_url' } });
  expect(refused.error.message).toContain('this runtime fetches no image URLs');
});

test('when context_management compacts first, the newest turn still shows its fetched image', async () => {
  const engine = new RecordingEngine();
  const fetch: typeof globalThis.fetch = async () => new Response(pngBytes(), { headers: { 'content-type': 'image/png' } });
  local = await localClient({ engine, server: { imageFetcher: createPolicyImageFetcher({ policy: { appOrigin: APP_ORIGIN }, fetch }) } });
  const first = await local.client.responses.create({ model: 'test-scripted-vision', input: `Turn 1: ${'the platypus is a monotreme. '.repeat(12)}` });
  const response = await local.client.responses.create({
    model: 'test-scripted-vision',
    previous_response_id: first.id,
    input: imageMessage('https://images.example/dot.png'),
    context_management: [{ type: 'compaction', compact_threshold: 100 }],
  });
  expect(response.output.map((i) => i.type)).toEqual(['compaction', 'message']);
  expect(response.output_text).toBe('You said: What is it? [1 image]');
  expect(engine.requests.at(-1)!.input.messages.at(-1)!.images).toEqual([png]);
});
