import { expect, test } from 'vitest';
import { FakeExtractWorker } from '../../../test/fakes/fake-extract-worker';
import { createWorkerExtractor } from './worker-extractor';

const options = (signal = new AbortController().signal) => ({ filename: 'a.pdf', contentType: 'application/pdf', signal });

test('one worker per file, terminated once it answered; its answer is checked before it is believed', async () => {
  const workers: FakeExtractWorker[] = [];
  const extractor = createWorkerExtractor({ createWorker: () => (workers.push(new FakeExtractWorker(() => ({ ok: true, text: 'hello', truncated: false }))), workers.at(-1)!.asWorker()) });
  expect(await extractor.extract(new Blob(['x']), options())).toEqual({ ok: true, text: 'hello', truncated: false });
  expect(await extractor.extract(new Blob(['y']), options())).toEqual({ ok: true, text: 'hello', truncated: false });
  expect(workers.map((w) => w.terminated)).toEqual([true, true]);

  const lying = createWorkerExtractor({ maxChars: 3, createWorker: () => new FakeExtractWorker(() => ({ ok: true, text: 'far too long' })).asWorker() });
  expect(await lying.extract(new Blob(['x']), options())).toMatchObject({ ok: false, code: 'server_error' });
  const odd = createWorkerExtractor({ createWorker: () => new FakeExtractWorker(() => ({ ok: false, code: 'rm -rf', message: 'x' })).asWorker() });
  expect(await odd.extract(new Blob(['x']), options())).toMatchObject({ ok: false, code: 'server_error' });
});

test('a file that never finishes is stopped at the time limit: the worker is terminated and the file fails', async () => {
  const worker = new FakeExtractWorker(null);
  const extractor = createWorkerExtractor({ timeLimitMs: 50, createWorker: () => worker.asWorker() });
  const result = await extractor.extract(new Blob(['%PDF-1.4 spin']), options());
  expect(result).toMatchObject({ ok: false, code: 'server_error', message: expect.stringMatching(/took longer than 0 s and was stopped/) });
  expect(worker.terminated).toBe(true);
});

test('cancelling terminates the worker at once', async () => {
  const worker = new FakeExtractWorker(null);
  const extractor = createWorkerExtractor({ createWorker: () => worker.asWorker() });
  const controller = new AbortController();
  const pending = extractor.extract(new Blob(['x']), options(controller.signal));
  controller.abort(new Error('cancelled'));
  await expect(pending).rejects.toThrow('cancelled');
  expect(worker.terminated).toBe(true);
});
