/**
 * Global setup of the Firefox e2e project: names this run's retry log (a file under the OS
 * temp dir, keyed by the run's process and start time, handed to the tests with `provide`),
 * and at the end lists every retry in the run's summary and fails the run when there were
 * too many (./firefox-retries.ts). A teardown cannot fail a vitest run by throwing (it is
 * logged, the exit status stays 0), so it sets the exit status itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { readRetries, retrySummary } from './firefox-retries';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this run's Firefox retries are written (test/support/firefox-retries.ts). */
    firefoxRetryLog: string;
  }
}

export default function setup(project: TestProject): () => void {
  const log = path.join(os.tmpdir(), `local-responses-firefox-retries-${process.pid}-${Date.now()}.jsonl`);
  project.provide('firefoxRetryLog', log);
  return () => {
    const { lines, failed } = retrySummary(readRetries(log));
    fs.rmSync(log, { force: true });
    if (lines.length) (failed ? console.error : console.warn)(lines.join('\n'));
    if (failed) process.exitCode = 1;
  };
}
