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
 * finish `loop` (unless interrupted and `responsive`), crash on `crash`. A worker answers
 * `ping` only while it is not `busy` (a real one cannot while code runs). The other codes
 * play what model code can do: `forge` posts `done` itself and goes on running; `forge-big`
 * posts a `done` with too many images before the real one; `spin-after` and `print-after`
 * leave code running once the call has returned; `guess-pong` posts answers to pings it
 * has not seen.
 */
function setup(frame: { interruptible?: boolean; responsive?: boolean; missesFirstInterrupt?: boolean; loadFails?: boolean; silent?: boolean } = {}, options: Partial<SandboxLinkOptions> = {}) {
  const channel = new MessageChannel();
  channels.push(channel);
  const fake: FakeFrame = { received: [], send: (m) => channel.port2.postMessage(m) };
  const busy = new Set<string>();
  /** What a worker does once it has answered its next ping. */
  const afterPong = new Map<string, () => void>();
  const done = (worker: string, call: number, images: string[] = []) => fake.send({ kind: 'done', worker, call, error: null, images, imagesDropped: 0 });
  channel.port2.onmessage = (event: MessageEvent<ToFrame>) => {
    const m = event.data;
    fake.received.push(m);
    if (m.kind === 'spawn' && !frame.silent) {
      fake.send(frame.loadFails ? { kind: 'failed', worker: m.worker, message: 'pyodide did not start: no wasm' } : { kind: 'ready', worker: m.worker, interruptible: frame.interruptible ?? false });
    }
    if (m.kind === 'ping' && !busy.has(m.worker)) {
      fake.send({ kind: 'pong', worker: m.worker, nonce: m.nonce });
      afterPong.get(m.worker)?.();
      afterPong.delete(m.worker);
    }
    if (m.kind === 'run') {
      if (m.code.startsWith('echo ')) {
        fake.send({ kind: 'output', worker: m.worker, call: m.call + 100, text: 'from another call\n' });
        fake.send({ kind: 'output', worker: m.worker, call: m.call, text: `${m.code.slice(5)}\n` });
        done(m.worker, m.call, ['data:image/png;base64,AA==']);
      }
      if (m.code === 'crash') fake.send({ kind: 'failed', worker: m.worker, message: 'out of memory' });
      if (m.code === 'loop' || m.code === 'forge') {
        busy.add(m.worker);
        fake.send({ kind: 'output', worker: m.worker, call: m.call, text: 'started\n' });
        if (m.code === 'forge') done(m.worker, m.call);
      }
      if (m.code === 'forge-big') {
        done(m.worker, m.call, [`data:image/png;base64,${'A'.repeat(6000)}`]);
        done(m.worker, m.call, ['data:image/png;base64,BB==']);
      }
      if (m.code === 'guess-pong') {
        busy.add(m.worker);
        for (const nonce of ['', '0', '1', 'a'.repeat(32)]) fake.send({ kind: 'pong', worker: m.worker, nonce });
        done(m.worker, m.call);
      }
      if (m.code === 'spin-after') {
        done(m.worker, m.call);
        afterPong.set(m.worker, () => busy.add(m.worker));
      }
      if (m.code === 'print-after') {
        done(m.worker, m.call);
        afterPong.set(m.worker, () => setTimeout(() => fake.send({ kind: 'output', worker: m.worker, call: m.call, text: 'still here\n' }), 20));
      }
    }
    if (m.kind === 'interrupt' && frame.missesFirstInterrupt && fake.received.filter((r) => r.kind === 'interrupt').length === 1) return;
    if (m.kind === 'interrupt' && frame.responsive) {
      const run = fake.received.filter((r) => r.kind === 'run').at(-1) as Extract<ToFrame, { kind: 'run' }>;
      busy.delete(m.worker);
      fake.send({ kind: 'done', worker: m.worker, call: run.call, error: 'KeyboardInterrupt', images: [], imagesDropped: 0 });
    }
  };
  let loads = 0;
  const link = new SandboxLink({
    port: channel.port1,
    files: async () => {
      loads++;
      return { 'pyodide.mjs': new Blob(['x']) };
    },
    config: { maxOutputChars: 1000, maxImageChars: 5000, maxErrorChars: 500 },
    // Generous by default (a loaded machine delays messages); the limit tests set 50 ms.
    timeLimitMs: 5000,
    loadTimeoutMs: 5000,
    interruptGraceMs: 50,
    pingTimeoutMs: 50,
    idlePingTimeoutMs: 50,
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
    expect(kinds(fake).filter((k) => k !== 'ping')).toEqual(['init', 'spawn', 'spawn']);
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

  test('an interrupt that is not seen is sent once more halfway through the grace: stopped, the state kept', async () => {
    const { link, fake } = setup({ interruptible: true, responsive: true, missesFirstInterrupt: true }, { timeLimitMs: 50, interruptGraceMs: 400 });
    const python = await link.spawn(signal);
    const { result, alive } = await python.run('loop', signal);
    expect(alive).toBe(true);
    expect(result.error).toMatch(/\(KeyboardInterrupt\)\. The Python state is kept\.$/);
    expect(kinds(fake).filter((k) => k === 'interrupt')).toHaveLength(2);
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
    const { link } = setup({}, { config: { maxOutputChars: 5, maxImageChars: 5000, maxErrorChars: 500 } });
    const python = await link.spawn(signal);
    const { result } = await python.run(`echo ${'x'.repeat(1000)}`, signal);
    expect(result.logs.length).toBeLessThanOrEqual(205);
  });

});

describe('the worker is untrusted: only the runtime decides a call is over', () => {
  test('a forged done from code that goes on running: the call ends at the time limit and the worker is terminated', async () => {
    const { link, fake } = setup({}, { timeLimitMs: 100 });
    const python = await link.spawn(signal);
    const started = Date.now();
    const { result, alive } = await python.run('forge', signal);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(alive).toBe(false);
    expect(result.error).toMatch(/^Execution stopped: the call returned, but Python kept running .* The Python state was lost/);
    await vi.waitFor(() => expect(kinds(fake).at(-1)).toBe('kill'));
  });

  test('interruptible too: the interrupt does not count as stopped until the worker answers', async () => {
    const { link, fake } = setup({ interruptible: true, responsive: false }, { timeLimitMs: 100 });
    const python = await link.spawn(signal);
    const { alive } = await python.run('forge', signal);
    expect(alive).toBe(false);
    await vi.waitFor(() => expect(kinds(fake).at(-1)).toBe('kill'));
  });

  test('answers to pings it has not seen do not end a call', async () => {
    const { link } = setup({}, { timeLimitMs: 100 });
    const python = await link.spawn(signal);
    expect((await python.run('guess-pong', signal)).alive).toBe(false);
  });

  test('a done over the image allowance is dropped, the worker’s next valid one counts', async () => {
    const { link } = setup();
    const python = await link.spawn(signal);
    const { result, alive } = await python.run('forge-big', signal);
    expect(alive).toBe(true);
    expect(result.images).toEqual(['data:image/png;base64,BB==']);
  });

  test('malformed messages are dropped before they are routed', async () => {
    const { link, fake } = setup({ silent: true }, { loadTimeoutMs: 100 });
    const spawning = link.spawn(signal);
    await vi.waitFor(() => expect(kinds(fake)).toContain('spawn'));
    const worker = (fake.received.find((m) => m.kind === 'spawn') as { worker: string }).worker;
    fake.send({ kind: 'ready', worker, interruptible: 'yes' } as never);
    fake.send({ kind: 'ready', worker, interruptible: false, extra: 1 } as never);
    await expect(spawning).rejects.toThrow('Python did not start within 0.1 s');
  });

  test('code left running after the call (a missed ping between calls): stopped, and the next call says why', async () => {
    const { link, fake } = setup({}, { idlePingMs: 30 });
    const python = await link.spawn(signal);
    expect((await python.run('spin-after', signal)).alive).toBe(true);
    await vi.waitFor(() => expect(kinds(fake).at(-1)).toBe('kill'));
    const next = await python.run('echo hi', signal);
    expect(next.alive).toBe(false);
    expect(next.result.error).toMatch(/^The Python interpreter was stopped between calls: code from an earlier call kept running in the background \(it did not answer within 0\.05 s\)\. The Python state was lost/);
  });

  test('output while idle: stopped at once', async () => {
    const { link, fake } = setup();
    const python = await link.spawn(signal);
    expect((await python.run('print-after', signal)).alive).toBe(true);
    await vi.waitFor(() => expect(kinds(fake).at(-1)).toBe('kill'));
    expect((await python.run('echo hi', signal)).result.error).toMatch(/\(it sent output while idle\)/);
  });

  test('an idle worker that answers is kept', async () => {
    const { link, fake } = setup({}, { idlePingMs: 20 });
    const python = await link.spawn(signal);
    await python.run('echo a', signal);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(kinds(fake)).not.toContain('kill');
    expect(kinds(fake).filter((k) => k === 'ping').length).toBeGreaterThan(3);
    expect((await python.run('echo b', signal)).alive).toBe(true);
    python.dispose();
  });
});
