import { expect, test } from 'vitest';
import { delimiterOffsets, dispositionParam, parseMultipart, readMultipart } from './read-multipart';

/** A body that must never be read whole: only sliced and streamed. */
class UnreadableWhole extends Blob {
  override arrayBuffer(): Promise<ArrayBuffer> {
    throw new Error('the whole body was read into memory');
  }
  override text(): Promise<string> {
    throw new Error('the whole body was read into memory');
  }
  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    throw new Error('the whole body was read into memory');
  }
}

test('a form as the SDK sends it: the file part is a slice with the exact bytes, fields are text', async () => {
  const file = new Uint8Array(200_000).map((_, i) => (i % 13 === 0 ? 13 : i % 251));
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'application/pdf' }), 'report "final".pdf');
  form.append('purpose', 'assistants');
  form.append('expires_after[seconds]', '3600');
  const request = new Request('http://x/v1/files', { method: 'POST', body: form });
  const parsed = await readMultipart(request);
  const part = parsed.files.get('file')!;
  expect(part.filename).toBe('report "final".pdf');
  expect(part.contentType).toBe('application/pdf');
  expect(new Uint8Array(await part.blob.arrayBuffer())).toEqual(file);
  expect(Object.fromEntries(parsed.fields)).toEqual({ purpose: 'assistants', 'expires_after[seconds]': '3600' });
});

test('the body is scanned as a stream and sliced, never read whole, and a boundary split across chunks is found', async () => {
  const boundary = 'XyZ123';
  const data = 'A'.repeat(70_000) + '\r\n-' + 'B'.repeat(100);
  const text = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${data}\r\n--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nuser_data\r\n--${boundary}--\r\n`;
  const body = new UnreadableWhole([text]);
  const parsed = await parseMultipart(body, boundary);
  expect(await parsed.files.get('file')!.blob.text()).toBe(data);
  expect(parsed.fields.get('purpose')).toBe('user_data');
  // Every position of a marker, whatever the chunking: here a stream of 7-byte chunks.
  const small = new Blob([text]);
  const chunked = { size: small.size, slice: small.slice.bind(small), stream: () => chunks(new TextEncoder().encode(text), 7) } as unknown as Blob;
  expect(await delimiterOffsets(chunked, boundary, 10)).toEqual(await delimiterOffsets(small, boundary, 10));
});

test('too many parts, or a body with no complete part, is refused', async () => {
  const many = Array.from({ length: 40 }, (_, i) => `--b\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`).join('') + '--b--\r\n';
  await expect(parseMultipart(new Blob([many]), 'b')).rejects.toThrow(/more than 32 parts/);
  await expect(parseMultipart(new Blob(['no boundary here']), 'b')).rejects.toThrow(/no complete part/);
});

test('content-disposition parameters: quoted with escapes, percent-encoded quotes, RFC 5987', () => {
  expect(dispositionParam('form-data; name="file"; filename="a\\"b.txt"', 'filename')).toBe('a"b.txt');
  expect(dispositionParam('form-data; name="file"; filename="a%22b.txt"', 'filename')).toBe('a"b.txt');
  expect(dispositionParam("form-data; name=\"file\"; filename=\"x\"; filename*=UTF-8''%C3%A9t%C3%A9.txt", 'filename')).toBe('été.txt');
  expect(dispositionParam('form-data; name="purpose"', 'filename')).toBeNull();
});

function chunks(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}
