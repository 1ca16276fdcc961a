/**
 * The runtime's side of a program worker, with a fake Worker: what the worker posts is
 * checked before it is believed, a worker that stops answering is terminated at the limit,
 * and closing the sandbox settles the step in flight and ends the worker.
 */
import { describe, expect, test, vi } from 'vitest';
import { workerPrograms } from './worker-programs';
import { DEFAULT_PROGRAM_LIMITS } from './program-protocol';

class FakeWorker {
  onmessage: ((event: MessageEvent<unknown>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  posted: unknown[] = [];
  terminated = false;
  constructor(private readonly reply: (message: unknown, worker: FakeWorker) => void) {}
  postMessage(message: unknown) {
    this.posted.push(message);
    queueMicrotask(() => this.reply(message, this));
  }
  terminate() {
    this.terminated = true;
  }
  answer(data: unknown) {
    this.onmessage?.({ data } as MessageEvent<unknown>);
  }
}

function sandboxWith(reply: (message: unknown, worker: FakeWorker) => void, cpuMs = 1000) {
  const workers: FakeWorker[] = [];
  const port = workerPrograms({
    limits: { ...DEFAULT_PROGRAM_LIMITS, cpuMs },
    graceMs: 100,
    createWorker: () => {
      const worker = new FakeWorker(reply);
      workers.push(worker);
      return worker as unknown as Worker;
    },
  });
  return { sandbox: port.open(), workers };
}

describe('a program worker, from the runtime', () => {
  test('steps go back and forth; the worker ends with the program', async () => {
    const { sandbox, workers } = sandboxWith((message, worker) => {
      const m = message as { type: string };
      worker.answer(m.type === 'start' ? { type: 'step', step: { type: 'calls', calls: [{ id: 1, path: ['f'], arguments: '{}' }] } } : { type: 'step', step: { type: 'done', result: '1' } });
    });
    expect(await sandbox.start('return 1', [['f']])).toEqual({ type: 'calls', calls: [{ id: 1, path: ['f'], arguments: '{}' }] });
    expect(workers[0]!.terminated).toBe(false);
    expect(await sandbox.answer([{ id: 1, ok: true, output: 'x' }])).toEqual({ type: 'done', result: '1' });
    expect(workers[0]!.terminated).toBe(true);
    expect(workers[0]!.posted).toMatchObject([{ type: 'start', code: 'return 1', paths: [['f']] }, { type: 'answer', answers: [{ id: 1, ok: true, output: 'x' }] }]);
  });

  test('a malformed message is not believed: the program fails and the worker is terminated', async () => {
    const { sandbox, workers } = sandboxWith((_m, worker) => worker.answer({ type: 'step', step: { type: 'done', result: 1, extra: 'forged' } }));
    expect(await sandbox.start('x', [])).toEqual({ type: 'failed', error: expect.stringMatching(/malformed/) });
    expect(workers[0]!.terminated).toBe(true);
  });

  test('a worker that does not answer within the CPU limit and the grace is terminated', async () => {
    vi.useFakeTimers();
    try {
      const { sandbox, workers } = sandboxWith(() => {}, 1000);
      const step = sandbox.start('for(;;){}', []);
      await vi.advanceTimersByTimeAsync(1101);
      expect(await step).toEqual({ type: 'failed', error: expect.stringMatching(/CPU time limit/) });
      expect(workers[0]!.terminated).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  test('closing settles the step in flight and ends the worker', async () => {
    const { sandbox, workers } = sandboxWith(() => {});
    const step = sandbox.start('for(;;){}', []);
    await Promise.resolve();
    sandbox.close();
    expect(await step).toEqual({ type: 'failed', error: 'The program was stopped.' });
    expect(workers[0]!.terminated).toBe(true);
    expect(await sandbox.answer([])).toEqual({ type: 'failed', error: 'The program was stopped.' });
  });
});
