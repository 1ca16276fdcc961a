/**
 * The Firefox harness's deadlock retry (./firefox.ts) and its run record
 * (./firefox-retries.ts), without a Firefox: what counts as the driver's deadlock, what is
 * recorded, and when a run fails for its retries.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { engineStartTimeout } from '../../src/engine/wllama/errors';
import { NestedWorkerDeadlock, retryOnNestedWorkerDeadlock, throwIfEngineStuck } from './firefox';
import { MAX_RETRIES_PER_RUN, readRetries, retrySummary } from './firefox-retries';

const WASM = 'http://127.0.0.1:4173/assets/wllama.wasm';
const logs: string[] = [];
function newLog(): string {
  const log = path.join(os.tmpdir(), `firefox-retries-test-${process.pid}-${logs.length}-${Date.now()}.jsonl`);
  logs.push(log);
  return log;
}
afterEach(() => {
  for (const log of logs.splice(0)) fs.rmSync(log, { force: true });
});

describe('throwIfEngineStuck', () => {
  test('a start timeout whose probe found the wasm fine is the driver’s deadlock', () => {
    const message = engineStartTimeout('test-tiny-llama', WASM, 60_000, null).message;
    expect(() => throwIfEngineStuck(message)).toThrow(NestedWorkerDeadlock);
  });

  test.each(['answered HTTP 404', 'is not a WebAssembly module this browser can compile (22 bytes)', 'could not be fetched (NetworkError when attempting to fetch resource.)'])(
    'a cause the probe found (%s) fails at once, its whole message kept',
    (problem) => {
      const message = engineStartTimeout('test-tiny-llama', WASM, 60_000, problem).message;
      let thrown: unknown;
      try {
        throwIfEngineStuck(message);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(Error);
      expect(thrown).not.toBeInstanceOf(NestedWorkerDeadlock);
      expect((thrown as Error).message).toContain(message);
      expect(message.length).toBeGreaterThan(200);
    },
  );

  test('anything else is no deadlock', () => {
    expect(() => throwIfEngineStuck(null)).not.toThrow();
    expect(() => throwIfEngineStuck('Loading x failed: out of memory')).not.toThrow();
  });
});

describe('retryOnNestedWorkerDeadlock', () => {
  const deadlocked = (times: number) => {
    let calls = 0;
    return async (attempt: number) => {
      calls++;
      if (attempt < times) throw new NestedWorkerDeadlock(`stuck ${attempt + 1}`);
      return calls;
    };
  };
  const noRecovery = async () => {};

  test('retries the deadlock, recording each retry for the run', async () => {
    const log = newLog();
    expect(await retryOnNestedWorkerDeadlock(deadlocked(1), noRecovery, log)).toBe(2);
    expect(readRetries(log)).toEqual([{ test: expect.stringContaining('recording each retry for the run'), attempt: 1, reason: 'stuck 1', retried: true }]);
  });

  test('any other error ends it at once, unrecorded', async () => {
    const log = newLog();
    let calls = 0;
    await expect(retryOnNestedWorkerDeadlock(async () => (calls++, Promise.reject(new Error('wasm missing'))), noRecovery, log)).rejects.toThrow('wasm missing');
    expect(calls).toBe(1);
    expect(readRetries(log)).toEqual([]);
  });

  test(`past ${MAX_RETRIES_PER_RUN} retries in a run, the next deadlock fails its test`, async () => {
    const log = newLog();
    await retryOnNestedWorkerDeadlock(deadlocked(2), noRecovery, log);
    await expect(retryOnNestedWorkerDeadlock(deadlocked(1), noRecovery, log)).rejects.toThrow(`stuck 1 — not retried: this run already retried ${MAX_RETRIES_PER_RUN} times`);
    expect(readRetries(log).map((r) => r.retried)).toEqual([true, true, false]);
    expect(retrySummary(readRetries(log)).failed).toBe(true);
  });

  test('without a run log it refuses to retry', async () => {
    await expect(retryOnNestedWorkerDeadlock(deadlocked(0), noRecovery, undefined)).rejects.toThrow(/No retry log/);
  });
});

describe('retrySummary', () => {
  const record = (n: number, retried = true) => ({ test: `t${n}`, attempt: 1, reason: `stuck ${n}`, retried });

  test('no retries: nothing to say', () => {
    expect(retrySummary([])).toEqual({ lines: [], failed: false });
  });

  test(`up to ${MAX_RETRIES_PER_RUN} retries: each listed, the run passes`, () => {
    const { lines, failed } = retrySummary([record(1), record(2)]);
    expect(failed).toBe(false);
    expect(lines).toEqual([
      "Firefox e2e: 2 retries for the driver's nested-worker deadlock (at most 2 allowed per run):",
      '  - t1 — attempt 1 retried: stuck 1',
      '  - t2 — attempt 1 retried: stuck 2',
    ]);
  });

  test('more fail the run', () => {
    expect(retrySummary([record(1), record(2), record(3)]).failed).toBe(true);
    expect(retrySummary([record(1), record(2), record(3, false)]).lines.at(-1)).toMatch(/The run fails/);
  });
});
