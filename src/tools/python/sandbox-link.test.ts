/**
 * The runtime side of the sandbox against a fake frame on the other end of a real
 * MessageChannel: spawning, output, the time limit (terminate, or interrupt where the
 * frame is cross-origin isolated), crashes.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { SandboxLink, type SandboxLinkOptions } from './sandbox-link';
import type { FromFrame, ToFrame } from './sandbox-protocol';

interface FakeFrame {
  received: ToFrame[];
  send(message: FromFrame): void;
}

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

/**
 * A frame whose workers: start (or fail to), print the code back for `echo …`, never
 * finish `loop` (unless interrupted and `responsive`), crash on `crash`.
 */
function setup(frame: { interruptible?: boolean; responsive?: boolean; loadFails?: boolean; silent?: boolean } = {}, options: Partial<SandboxLinkOptions> = {}) {
  const channel = new MessageChannel();
  channels.push(channel);
  const fake: FakeFrame = { received: [], send: (m) => channel.port2.postMessage(m) };
  channel.port2.onmessage = (event: MessageEvent<ToFrame>) => {
    const m = event.data;
    fake.received.push(m);
    if (m.kind === 'spawn' && !frame.silent) {
      fake.send(frame.loadFails ? { kind: 'failed', worker: m.worker, message: 'pyodide did not start: no wasm' } : { kind: 'ready', worker: m.worker, interruptible: frame.interruptible ?? false });
    }
    if (m.kind === 'run') {
      if (m.code.startsWith('echo ')) {
        fake.send({ kind: 'output', worker: m.worker, call: m.call + 100, text: 'from another call\n' });
        fake.send({ kind: 'output', worker: m.worker, call: m.call, text: `${m.code.slice(5)}\n` });
        fake.send({ kind: 'done', worker: m.worker, call: m.call, error: null, images: ['data:image/png;base64,AA=='] });
      }
      if (m.code === 'crash') fake.send({ kind: 'failed', worker: m.worker, message: 'out of memory' });
      if (m.code === 'loop') fake.send({ kind: 'output', worker: m.worker, call: m.call, text: 'started\n' });
    }
    if (m.kind === 'interrupt' && frame.responsive) {
      const run = fake.received.filter((r) => r.kind === 'run').at(-1) as Extract<ToFrame, { kind: 'run' }>;
      fake.send({ kind: 'done', worker: m.worker, call: run.call, error: 'KeyboardInterrupt', images: [] });
    }
  };
  let loads = 0;
  const link = new SandboxLink({
    port: channel.port1,
    files: async () => {
      loads++;
      return { 'pyodide.mjs': new Blob(['x']) };
    },
    config: { maxOutputChars: 1000 },
    // Generous by default (a loaded machine delays messages); the limit tests set 50 ms.
    timeLimitMs: 5000,
    loadTimeoutMs: 5000,
    interruptGraceMs: 50,
    ...options,
  });
  return { link, fake, loads: () => loads };
}

const signal = new AbortController().signal;
const kinds = (fake: FakeFrame) => fake.received.map((m) => m.kind);

describe('SandboxLink', () => {
  test('spawn: init once (the worker code and the files), then one worker per interpreter', async () => {
    const { link, fake, loads } = setup();
    await link.spawn(signal);
    await link.spawn(signal);
    expect(kinds(fake)).toEqual(['init', 'spawn', 'spawn']);
    const init = fake.received[0] as Extract<ToFrame, { kind: 'init' }>;
    expect(init.workerSource).toContain('https://pyodide.invalid/');
    expect(init.workerSource.startsWith('(function')).toBe(true);
    expect(Object.keys(init.files)).toEqual(['pyodide.mjs']);
    expect(loads()).toBe(1);
    expect(new Set(fake.received.filter((m) => m.kind === 'spawn').map((m) => (m as { worker: string }).worker)).size).toBe(2);
  });

  test('run: output of this call only, images, alive', async () => {
    const { link } = setup();
    const python = await link.spawn(signal);
    expect(await python.run('echo hi', signal)).toEqual({ result: { logs: 'hi\n', images: ['data:image/png;base64,AA=='], error: null }, alive: true });
    expect((await python.run('echo again', signal)).result.logs).toBe('again\n');
  });

  test('time limit without cross-origin isolation: the worker is terminated, the state lost', async () => {
    const { link, fake } = setup({}, { timeLimitMs: 50 });
    const python = await link.spawn(signal);
    const { result, alive } = await python.run('loop', signal);
    expect(alive).toBe(false);
    expect(result.logs).toBe('started\n'); // what it printed before is kept
    expect(result.error).toBe(
      'Execution stopped: the code ran longer than the 0.05 s time limit. The Python state was lost: the next call starts a fresh interpreter, so run imports and definitions again.',
    );
    await vi.waitFor(() => expect(kinds(fake).at(-1)).toBe('kill')); // messages arrive a moment later
  });

  test('time limit with an interrupt buffer: KeyboardInterrupt, the state kept', async () => {
    const { link, fake } = setup({ interruptible: true, responsive: true }, { timeLimitMs: 50 });
    const python = await link.spawn(signal);
    const { result, alive } = await python.run('loop', signal);
    expect(alive).toBe(true);
    expect(result.error).toBe('Execution stopped: the code ran longer than the 0.05 s time limit (KeyboardInterrupt). The Python state is kept.');
    expect(kinds(fake)).not.toContain('kill');
  });

  test('code that ignores the interrupt is terminated after the grace period', async () => {
    const { link, fake } = setup({ interruptible: true, responsive: false }, { timeLimitMs: 50 });
    const python = await link.spawn(signal);
    const { result, alive } = await python.run('loop', signal);
    expect(alive).toBe(false);
    expect(result.error).toMatch(/did not stop when interrupted\. The Python state was lost/);
    await vi.waitFor(() => expect(kinds(fake).slice(-2)).toEqual(['interrupt', 'kill']));
  });

  test('a crash during a run', async () => {
    const { link } = setup();
    const python = await link.spawn(signal);
    const { result, alive } = await python.run('crash', signal);
    expect(alive).toBe(false);
    expect(result.error).toMatch(/^The Python sandbox stopped unexpectedly \(out of memory\)\. The Python state was lost/);
  });

  test('cancel: terminated at once', async () => {
    const { link, fake } = setup();
    const python = await link.spawn(signal);
    const controller = new AbortController();
    const running = python.run('loop', controller.signal);
    controller.abort();
    expect((await running).result.error).toMatch(/^The run was cancelled\. The Python state was lost/);
    await vi.waitFor(() => expect(kinds(fake).at(-1)).toBe('kill')); // messages arrive a moment later
  });

  test('start failures: pyodide fails, no answer in time, files missing (retried next time)', async () => {
    await expect(setup({ loadFails: true }).link.spawn(signal)).rejects.toThrow('pyodide did not start: no wasm');
    await expect(setup({ silent: true }, { loadTimeoutMs: 30 }).link.spawn(signal)).rejects.toThrow('Python did not start within 0.03 s');
    let attempts = 0;
    const { link } = setup({}, {
      files: async () => {
        if (++attempts === 1) throw new Error('offline');
        return {};
      },
    });
    await expect(link.spawn(signal)).rejects.toThrow('offline');
    await expect(link.spawn(signal)).resolves.toBeDefined();
  });

  test('output is capped', async () => {
    const { link } = setup({}, { config: { maxOutputChars: 5 } });
    const python = await link.spawn(signal);
    const { result } = await python.run(`echo ${'x'.repeat(1000)}`, signal);
    expect(result.logs.length).toBeLessThanOrEqual(205);
  });
});
