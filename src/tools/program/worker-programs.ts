/**
 * The browser's `ProgramsPort`: each program in a dedicated worker of its own
 * (program-worker-main.ts) running QuickJS. The worker is untrusted once a program has run in
 * it: what it posts is checked with zod, and a step that does not come back within the CPU
 * limit plus a grace (a sandbox that stopped answering) ends with the worker terminated.
 */
import type { ProgramCallAnswer, ProgramSandbox, ProgramsPort, ProgramStep } from '../../ports/tool-ports';
import { DEFAULT_PROGRAM_LIMITS, FromWorker, type ProgramLimits, type ToWorker } from './program-protocol';

export interface WorkerProgramsOptions {
  limits?: ProgramLimits;
  /** Default: the bundled sandbox worker. */
  createWorker?: () => Worker;
  /** What a step may take beyond the CPU limit before the worker is deemed stuck (default 5 s; QuickJS loads in the first). */
  graceMs?: number;
}

function defaultWorker(): Worker {
  return new Worker(new URL('./program-worker-main.ts', import.meta.url), { type: 'module', name: 'program sandbox' });
}

export function workerPrograms(options: WorkerProgramsOptions = {}): ProgramsPort {
  const limits = options.limits ?? DEFAULT_PROGRAM_LIMITS;
  const createWorker = options.createWorker ?? defaultWorker;
  const graceMs = options.graceMs ?? 5_000;
  return { open: () => new WorkerSandbox(createWorker, limits, graceMs) };
}

class WorkerSandbox implements ProgramSandbox {
  #worker: Worker | null = null;
  #closed = false;
  /** Settles the step in flight when the sandbox is closed under it (cancel, idle drop). */
  #interrupt: (() => void) | null = null;
  /** One step at a time: the program is either running or waiting for answers. */
  #busy: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly createWorker: () => Worker,
    private readonly limits: ProgramLimits,
    private readonly graceMs: number,
  ) {}

  start(code: string, paths: readonly (readonly string[])[]): Promise<ProgramStep> {
    return this.#send({ type: 'start', code, paths: paths.map((p) => [...p]), limits: this.limits });
  }

  answer(answers: readonly ProgramCallAnswer[]): Promise<ProgramStep> {
    return this.#send({ type: 'answer', answers: [...answers] });
  }

  close(): void {
    this.#closed = true;
    this.#worker?.terminate();
    this.#worker = null;
    this.#interrupt?.();
  }

  #send(message: ToWorker): Promise<ProgramStep> {
    const step = this.#busy.then(() => this.#exchange(message));
    this.#busy = step.catch(() => undefined);
    return step;
  }

  #exchange(message: ToWorker): Promise<ProgramStep> {
    if (this.#closed) return Promise.resolve({ type: 'failed', error: 'The program was stopped.' });
    const worker = (this.#worker ??= this.createWorker());
    return new Promise<ProgramStep>((resolve) => {
      const finish = (step: ProgramStep) => {
        this.#interrupt = null;
        clearTimeout(timer);
        worker.onmessage = null;
        worker.onerror = null;
        worker.onmessageerror = null;
        // A program that is over needs its worker no more.
        if (step.type !== 'calls') this.close();
        resolve(step);
      };
      // A failed step closes the sandbox (finish): the worker is terminated.
      const timer = setTimeout(
        () => finish({ type: 'failed', error: `The program used more than its CPU time limit (${Math.round(this.limits.cpuMs / 1000)} s) and was stopped.` }),
        this.limits.cpuMs + this.graceMs,
      );
      worker.onmessage = (event: MessageEvent<unknown>) => {
        const parsed = FromWorker.safeParse(event.data);
        finish(parsed.success ? parsed.data.step : { type: 'failed', error: 'The program sandbox sent a malformed message and was stopped.' });
      };
      worker.onerror = (event) => {
        event.preventDefault();
        finish({ type: 'failed', error: `The program sandbox crashed: ${event.message || 'unknown error'}.` });
      };
      worker.onmessageerror = () => finish({ type: 'failed', error: 'The program sandbox sent a message that could not be read.' });
      this.#interrupt = () => finish({ type: 'failed', error: 'The program was stopped.' });
      // Stopped while waiting to send (cancel): nothing more runs.
      if (this.#closed) return finish({ type: 'failed', error: 'The program was stopped.' });
      worker.postMessage(message);
    });
  }
}
