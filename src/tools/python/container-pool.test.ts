import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ContainerPool, type Interpreter } from './container-pool';

/** A stand-in interpreter: `x = 1` stores, `print(x)` reads, `die` loses the interpreter, `wait` blocks until released. */
class FakeInterpreter implements Interpreter {
  static made: FakeInterpreter[] = [];
  readonly vars = new Map<string, string>();
  disposed = false;
  readonly id = FakeInterpreter.made.length;
  release?: () => void;
  constructor() {
    FakeInterpreter.made.push(this);
  }
  async run(code: string, signal: AbortSignal) {
    if (code === 'die') return { result: { logs: '', images: [], error: 'Time limit; the Python state was lost.' }, alive: false };
    if (code === 'wait') {
      await new Promise<void>((resolve) => {
        this.release = resolve;
        signal.addEventListener('abort', () => resolve());
      });
      if (signal.aborted) return { result: { logs: '', images: [], error: 'cancelled' }, alive: false };
    }
    const set = /^(\w+) = (.*)$/.exec(code);
    if (set) this.vars.set(set[1]!, set[2]!);
    const get = /^print\((\w+)\)$/.exec(code);
    const logs = get ? `${this.vars.get(get[1]!) ?? 'NameError'}@${this.id}\n` : '';
    return { result: { logs, images: [], error: null }, alive: true };
  }
  dispose() {
    this.disposed = true;
  }
}

const signal = new AbortController().signal;
let spawned = 0;
let failSpawns = 0;
function pool(options: { idleMs?: number; maxContainers?: number; warmSpare?: boolean } = {}) {
  return new ContainerPool({
    async spawn() {
      spawned++;
      if (failSpawns > 0) {
        failSpawns--;
        throw new Error('pyodide files missing');
      }
      return new FakeInterpreter();
    },
    warmSpare: false,
    ...options,
  });
}
const run = (p: ContainerPool, containerId: string, code: string, s = signal) => p.run(code, { containerId, signal: s });

beforeEach(() => {
  FakeInterpreter.made = [];
  spawned = 0;
  failSpawns = 0;
});
afterEach(() => vi.useRealTimers());

describe('ContainerPool', () => {
  test('state persists within a container and is separate between containers', async () => {
    const p = pool();
    await run(p, 'a', 'x = 41');
    await run(p, 'b', 'x = 7');
    expect((await run(p, 'a', 'print(x)')).logs).toBe('41@0\n');
    expect((await run(p, 'b', 'print(x)')).logs).toBe('7@1\n');
    expect(spawned).toBe(2);
  });

  test('a dead interpreter is replaced by a fresh one on the next call', async () => {
    const p = pool();
    await run(p, 'a', 'x = 41');
    expect((await run(p, 'a', 'die')).error).toMatch(/state was lost/);
    expect((await run(p, 'a', 'print(x)')).logs).toBe('NameError@1\n');
    expect(p.live()).toEqual(['a']);
  });

  test('calls in one container run one at a time, in order', async () => {
    const p = pool();
    const first = run(p, 'a', 'wait');
    const second = run(p, 'a', 'x = 2');
    const third = run(p, 'a', 'print(x)');
    await vi.waitFor(() => expect(FakeInterpreter.made[0]?.release).toBeDefined());
    expect(FakeInterpreter.made[0]!.vars.size).toBe(0); // the second waits for the first
    FakeInterpreter.made[0]!.release!();
    await first;
    await second;
    expect((await third).logs).toBe('2@0\n');
  });

  test('an idle container is dropped after idleMs; use keeps it alive', async () => {
    vi.useFakeTimers();
    const p = pool({ idleMs: 1000 });
    await run(p, 'a', 'x = 1');
    await vi.advanceTimersByTimeAsync(900);
    await run(p, 'a', 'x = 2');
    await vi.advanceTimersByTimeAsync(900);
    expect(p.live()).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(200);
    expect(p.live()).toEqual([]);
    expect(FakeInterpreter.made[0]!.disposed).toBe(true);
    expect((await run(p, 'a', 'print(x)')).logs).toBe('NameError@1\n');
  });

  test('a running call is never dropped for idleness', async () => {
    vi.useFakeTimers();
    const p = pool({ idleMs: 1000 });
    const long = run(p, 'a', 'wait');
    await vi.advanceTimersByTimeAsync(5000);
    expect(p.live()).toEqual(['a']);
    FakeInterpreter.made[0]!.release!();
    await long;
  });

  test('at most maxContainers: the least recently used idle one is evicted', async () => {
    const p = pool({ maxContainers: 2 });
    await run(p, 'a', 'x = 1');
    await run(p, 'b', 'x = 2');
    await run(p, 'a', 'print(x)'); // a is now the most recent
    await run(p, 'c', 'x = 3');
    expect(p.live()).toEqual(['a', 'c']);
    expect(FakeInterpreter.made[1]!.disposed).toBe(true);
    expect(FakeInterpreter.made[0]!.disposed).toBe(false);
  });

  test('a busy container is not evicted', async () => {
    const p = pool({ maxContainers: 1 });
    const busy = run(p, 'a', 'wait');
    await vi.waitFor(() => expect(FakeInterpreter.made[0]?.release).toBeDefined());
    await run(p, 'b', 'x = 1');
    expect(p.live()).toEqual(['a', 'b']);
    FakeInterpreter.made[0]!.release!();
    await busy;
  });

  test('a failed start is reported to the call and retried on the next', async () => {
    const p = pool();
    failSpawns = 1;
    expect(await run(p, 'a', 'x = 1')).toEqual({ logs: '', images: [], error: 'The Python sandbox could not start: pyodide files missing' });
    expect((await run(p, 'a', 'x = 1')).error).toBeNull();
    expect(spawned).toBe(2);
  });

  test('cancelling while Python starts leaves the interpreter for later', async () => {
    let finish: ((i: Interpreter) => void) | undefined;
    const p = new ContainerPool({ spawn: () => new Promise((resolve) => (finish = resolve)), warmSpare: false });
    const controller = new AbortController();
    const pending = run(p, 'a', 'x = 5', controller.signal);
    await vi.waitFor(() => expect(finish).toBeDefined());
    controller.abort();
    expect((await pending).error).toMatch(/cancelled while Python was starting/);
    finish!(new FakeInterpreter());
    expect((await run(p, 'a', 'print(x)')).logs).toBe('NameError@0\n');
  });

  test('warm spare: the next new container takes an interpreter that was already started', async () => {
    const p = pool({ warmSpare: true });
    await run(p, 'a', 'x = 1');
    await vi.waitFor(() => expect(spawned).toBe(2)); // the spare, started after the first was up
    await run(p, 'b', 'x = 2');
    expect(FakeInterpreter.made.map((i) => i.vars.get('x'))).toEqual(['1', '2', undefined]);
    expect(spawned).toBe(3); // and the next spare
  });

  test('warm spare is dropped when the last container idles out', async () => {
    vi.useFakeTimers();
    const p = pool({ warmSpare: true, idleMs: 1000 });
    await run(p, 'a', 'x = 1');
    await vi.advanceTimersByTimeAsync(1001);
    expect(FakeInterpreter.made.map((i) => i.disposed)).toEqual([true, true]);
  });

  test('close stops every interpreter and refuses new ones', async () => {
    const p = pool({ warmSpare: true });
    await run(p, 'a', 'x = 1');
    await vi.waitFor(() => expect(spawned).toBe(2));
    p.close();
    await Promise.resolve();
    expect(FakeInterpreter.made.every((i) => i.disposed)).toBe(true);
    expect((await run(p, 'b', 'x = 1')).error).toMatch(/could not start: The code interpreter was shut down/);
  });
});
