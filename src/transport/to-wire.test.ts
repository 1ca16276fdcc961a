import { expect, test } from 'vitest';
import { toWire } from './port-fetch';

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request('http://app.test/v1/responses', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

test('a body within the limit crosses whole', async () => {
  const wire = await toWire(post('{"a":1}', { 'content-type': 'application/json' }), 100);
  expect(new TextDecoder().decode(wire!.body as ArrayBuffer)).toBe('{"a":1}');
  expect(wire!.headers).toContainEqual(['content-type', 'application/json']);
});

test('a body over the limit is refused, by its declared length or while it streams, without reading the rest', async () => {
  expect(await toWire(post('x'.repeat(2000)), 1000)).toBeNull();
  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(400));
    },
  });
  expect(await toWire(post(endless), 1000)).toBeNull();
  expect(pulled).toBeLessThan(10);
});

test('GET has no body', async () => {
  expect((await toWire(new Request('http://app.test/v1/models'), 10))!.body).toBeNull();
});

test('an upload crosses as a Blob under its own limit, not the JSON one', async () => {
  const form = new FormData();
  form.append('purpose', 'assistants');
  form.append('file', new Blob(['x'.repeat(5000)]), 'big.txt');
  const wire = await toWire(new Request('http://app.test/v1/files', { method: 'POST', body: form }), 1000, 10_000);
  expect(wire!.body).toBeInstanceOf(Blob);
  expect(await (wire!.body as Blob).text()).toContain('x'.repeat(5000));
  // Over the upload limit: refused by its declared length.
  expect(await toWire(new Request('http://app.test/v1/files', { method: 'POST', body: form }), 1000, 2000)).toBeNull();
});
