/**
 * A stand-in for the extraction worker at the `Worker` boundary (Node has no web Worker): it
 * answers a job with what `answer` gives, or never (a file that makes the parser spin), and
 * records whether it was terminated.
 */
export class FakeExtractWorker {
  onmessage: ((event: MessageEvent<unknown>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  terminated = false;
  readonly jobs: unknown[] = [];

  constructor(private readonly answer: ((job: unknown) => unknown) | null) {}

  postMessage(job: unknown): void {
    this.jobs.push(job);
    const answer = this.answer;
    if (answer) queueMicrotask(() => !this.terminated && this.onmessage?.({ data: answer(job) } as MessageEvent<unknown>));
  }

  terminate(): void {
    this.terminated = true;
  }

  /** As a Worker (the extractor uses only the members above). */
  asWorker(): Worker {
    return this as unknown as Worker;
  }
}
