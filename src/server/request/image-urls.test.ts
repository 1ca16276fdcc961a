import { describe, expect, test } from 'vitest';
import type { StoredItem } from '../../protocol/output-items';
import type { ImageFetch, ImageFetcher } from '../../ports/image-fetcher';
import { withFetchedImages } from './image-urls';

const DOT = 'data:image/png;base64,iVBORw0KGgo=';
const signal = new AbortController().signal;

const message = (id: string, ...urls: string[]): StoredItem => ({
  type: 'message',
  id,
  role: 'user',
  status: 'completed',
  content: [{ type: 'input_text', text: id }, ...urls.map((image_url) => ({ type: 'input_image' as const, image_url, file_id: null, detail: 'auto' as const }))],
});

/** A fetcher answering from a table (a missing URL: refused), remembering what it was asked. */
function fetcher(table: Record<string, ImageFetch>): ImageFetcher & { asked: string[] } {
  const asked: string[] = [];
  return { asked, fetchImage: async (url) => (asked.push(url), table[url] ?? { ok: false, reason: `${url} is refused` }) };
}

describe('withFetchedImages', () => {
  test('https: images become data: URLs, each URL fetched once per request; data: URLs are left as they are', async () => {
    const images = fetcher({ 'https://img.example/a.png': { ok: true, dataUrl: DOT } });
    const out = await withFetchedImages(images, [message('old', 'https://img.example/a.png'), message('new', 'https://img.example/a.png', DOT)], 1, signal);
    expect(out.map((item) => (item.type === 'message' ? item.content.map((p) => (p.type === 'input_image' ? p.image_url : p.type)) : []))).toEqual([
      ['input_text', DOT],
      ['input_text', DOT, DOT],
    ]);
    expect(images.asked).toEqual(['https://img.example/a.png']);
  });

  test("an image of the request's input that cannot be fetched is a 400 naming the part", async () => {
    const images = fetcher({});
    const output: StoredItem = { type: 'function_call_output', id: 'fc', call_id: 'c', status: 'completed', output: [{ type: 'input_image', image_url: 'https://img.example/b.png', file_id: null, detail: 'auto' }] };
    await expect(withFetchedImages(images, [message('old'), output], 1, signal)).rejects.toMatchObject({
      data: { status: 400, code: 'invalid_image_url', param: 'input[0].output[0].image_url', message: expect.stringContaining('https://img.example/b.png is refused') },
    });
  });

  test('a replayed image URL of another scheme (a row stored before the rule) is never fetched: the model is told it is not shown', async () => {
    const images = fetcher({});
    const [old] = await withFetchedImages(images, [message('old', 'http://127.0.0.1:8080/x.png'), message('new')], 1, signal);
    expect(old).toMatchObject({ content: [{ type: 'input_text', text: 'old' }, { type: 'input_text', text: '[An image of an earlier message is not shown: http://127.0.0.1:8080/x.png is not fetched: only data: and https: image URLs are.]' }] });
    expect(images.asked).toEqual([]);
    // In the input it would be a 400 (the protocol refuses it first; this is the second line).
    await expect(withFetchedImages(images, [message('new', 'file:///etc/passwd')], 1, signal)).rejects.toMatchObject({ data: { status: 400, param: 'input[0].content[1].image_url' } });
    expect(images.asked).toEqual([]);
  });

  test('a replayed https: image that cannot be fetched now is noted; without a fetcher, so is every one', async () => {
    const [old] = await withFetchedImages(fetcher({}), [message('old', 'https://img.example/gone.png'), message('new')], 1, signal);
    expect(old).toMatchObject({ content: [{}, { type: 'input_text', text: '[An image of an earlier message is not shown: https://img.example/gone.png is refused.]' }] });
    const [none] = await withFetchedImages(undefined, [message('old', 'https://img.example/a.png'), message('new')], 1, signal);
    expect(none).toMatchObject({ content: [{}, { type: 'input_text', text: expect.stringContaining('this runtime fetches no image URLs') }] });
  });
});
