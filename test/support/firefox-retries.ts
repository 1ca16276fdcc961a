/**
 * The record of a run's Firefox retries (the driver's nested-worker deadlock:
 * `NestedWorkerDeadlock` in ./firefox.ts). A retry must never hide a failure quietly: each
 * one is written to a file of this run (under the OS temp dir, named by the run's global
 * setup: ./firefox-retries-setup.ts), listed in the run's summary, and more than
 * {@link MAX_RETRIES_PER_RUN} in one run fail it — an intermittent hang that keeps passing
 * on a retry is a hang to look at, not noise.
 */
import fs from 'node:fs';

/** Retries allowed in one run of the Firefox tests (`npm test` runs them once). */
export const MAX_RETRIES_PER_RUN = 2;

export interface RetryRecord {
  /** The test's full name. */
  test: string;
  /** The attempt that failed (1 = the first). */
  attempt: number;
  /** What was taken for the deadlock, in the words the harness saw. */
  reason: string;
  /** Whether another attempt was made (false: the run's allowance was spent, the test failed). */
  retried: boolean;
}

export function recordRetry(log: string, record: RetryRecord): void {
  fs.appendFileSync(log, `${JSON.stringify(record)}\n`);
}

export function readRetries(log: string): RetryRecord[] {
  if (!fs.existsSync(log)) return [];
  return fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RetryRecord);
}

/** Retries made so far in this run. */
export function retriesSoFar(log: string): number {
  return readRetries(log).filter((r) => r.retried).length;
}

/** The summary lines for a run's records, and whether the run must fail for them. */
export function retrySummary(records: readonly RetryRecord[]): { lines: string[]; failed: boolean } {
  if (records.length === 0) return { lines: [], failed: false };
  const retried = records.filter((r) => r.retried).length;
  const refused = records.length - retried;
  const failed = retried > MAX_RETRIES_PER_RUN || refused > 0;
  const lines = [
    `Firefox e2e: ${retried} retr${retried === 1 ? 'y' : 'ies'} for the driver's nested-worker deadlock (at most ${MAX_RETRIES_PER_RUN} allowed per run)${refused ? `, ${refused} more refused` : ''}:`,
    ...records.map((r) => `  - ${r.test} — attempt ${r.attempt} ${r.retried ? 'retried' : 'not retried (allowance spent)'}: ${r.reason}`),
  ];
  if (failed) lines.push(`  The run fails: more deadlocks than ${MAX_RETRIES_PER_RUN} retries are a hang to look at, not the driver's noise.`);
  return { lines, failed };
}
