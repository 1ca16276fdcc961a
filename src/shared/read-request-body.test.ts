import { describe, expect, test } from 'vitest';
import { StreamlessRequest } from '../../test/fakes/streamless-request';
import { readRequestBody } from './read-request-body';

const URL_ = 'http://app.test/v1/responses';
const text = (bytes: Uint8Array | null) => (bytes === null ? null : new TextDecoder().decode(bytes));

describe('without Request.body (Firefox)', () => {
  test('the fake really has no body member, so the fallback is what runs', () => {
    const request = new StreamlessRequest(URL_, 'POST', ['{}']);
    expect('body' in request).toBe(false);
  });

  test('a body within the limit arrives whole, byte for byte', async () => {
    const body = '{"input":"héllo — 你好"}';
    const request = new StreamlessRequest(URL_, 'POST', [body]);
    expect(text(await readRequestBody(request, 1000))).toBe(body);
    expect(request.blobs).toHaveLength(1);
  });

  test('exactly at the limit is accepted; one byte more is refused without copying the bytes', async () => {
    const at = new StreamlessRequest(URL_, 'POST', ['x'.repeat(100)]);
    expect((await readRequestBody(at, 100))?.byteLength).toBe(100);
    const over = new StreamlessRequest(URL_, 'POST', ['x'.repeat(101)]);
    expect(await readRequestBody(over, 100)).toBeNull();
    expect(over.blobs).toHaveLength(1);
    expect(over.blobs[0]!.copies).toBe(0);
  });

  test('a declared Content-Length over the limit is refused before the body is touched', async () => {
    const request = new StreamlessRequest(URL_, 'POST', ['x'.repeat(10)], { 'content-length': '5000' });
    expect(await readRequestBody(request, 1000)).toBeNull();
    expect(request.blobs).toHaveLength(0);
  });

  test('no body is zero bytes', async () => {
    const request = new StreamlessRequest(URL_, 'POST', []);
    expect((await readRequestBody(request, 10))?.byteLength).toBe(0);
  });
});

describe('with Request.body (Chromium, Node)', () => {
  test('a real Request is read from its stream', async () => {
    const request = new Request(URL_, { method: 'POST', body: 'abc' });
    expect(text(await readRequestBody(request, 10))).toBe('abc');
  });

  test('a stream over the limit is cancelled after the limit, not read to its end', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(400));
      },
    });
    const request = new Request(URL_, { method: 'POST', body: endless, duplex: 'half' } as RequestInit);
    expect(await readRequestBody(request, 1000)).toBeNull();
    expect(pulled).toBeLessThan(10);
  });

  test('no body (null) is zero bytes', async () => {
    expect((await readRequestBody(new Request(URL_, { method: 'POST' }), 10))?.byteLength).toBe(0);
  });
});
