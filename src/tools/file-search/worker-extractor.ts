/**
 * TextExtractor on a dedicated worker per file (extract-worker.ts): the file is parsed outside
 * the runtime worker's context, the worker is terminated as soon as it answers, when the
 * caller aborts, or when its time limit passes — the only bound on a file built to make a
 * parser spin. What comes back is checked before it is believed.
 */
import type { Extraction, ExtractOptions, TextExtractor } from '../../ports/text-extractor';
import { MAX_EXTRACTED_CHARS } from './text-extraction';

/** What the runtime posts to an extraction worker. */
export interface ExtractJob {
  file: Blob;
  filename: string;
  contentType: string;
  maxChars: number;
}

export interface WorkerExtractorOptions {
  /** How long one file may take (default 60 s). */
  timeLimitMs?: number;
  /** Most characters of text one file gives. */
  maxChars?: number;
  /** Default: the bundled extraction worker. */
  createWorker?: () => Worker;
}

export const DEFAULT_EXTRACT_TIME_LIMIT_MS = 60_000;

function defaultWorker(): Worker {
  return new Worker(new URL('./extract-worker.ts', import.meta.url), { type: 'module', name: 'file text extraction' });
}

export function createWorkerExtractor(options: WorkerExtractorOptions = {}): TextExtractor {
  const timeLimitMs = options.timeLimitMs ?? DEFAULT_EXTRACT_TIME_LIMIT_MS;
  const maxChars = options.maxChars ?? MAX_EXTRACTED_CHARS;
  const createWorker = options.createWorker ?? defaultWorker;
  return {
    extract(file: Blob, { filename, contentType, signal }: ExtractOptions): Promise<Extraction> {
      return new Promise<Extraction>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        const worker = createWorker();
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          worker.terminate();
          settle();
        };
        const onAbort = () => finish(() => reject(signal.reason));
        const timer = setTimeout(
          () => finish(() => resolve({ ok: false, code: 'server_error', message: `Reading ${JSON.stringify(filename.slice(0, 200))} took longer than ${Math.round(timeLimitMs / 1000)} s and was stopped.` })),
          timeLimitMs,
        );
        signal.addEventListener('abort', onAbort, { once: true });
        worker.onmessage = (event: MessageEvent<unknown>) => finish(() => resolve(checked(event.data, maxChars)));
        worker.onerror = (event) => {
          event.preventDefault();
          finish(() => resolve({ ok: false, code: 'server_error', message: `Reading the file failed: ${event.message || 'the extraction worker crashed'}.` }));
        };
        worker.onmessageerror = () => finish(() => resolve({ ok: false, code: 'server_error', message: 'Reading the file failed: its text could not be received.' }));
        const job: ExtractJob = { file, filename, contentType, maxChars };
        worker.postMessage(job);
      });
    },
  };
}

/** The worker's answer, believed only in the shape it must have and within the text limit. */
function checked(data: unknown, maxChars: number): Extraction {
  const answer = data as Partial<Record<string, unknown>> | null;
  if (answer?.ok === true && typeof answer.text === 'string' && answer.text.length <= maxChars)
    return { ok: true, text: answer.text, truncated: answer.truncated === true };
  const codes = ['unsupported_file', 'invalid_file', 'server_error'] as const;
  const code = codes.find((c) => c === answer?.code);
  if (answer?.ok === false && code && typeof answer.message === 'string') return { ok: false, code, message: answer.message.slice(0, 1000) };
  return { ok: false, code: 'server_error', message: 'Reading the file failed: the extraction worker gave an answer that is not text.' };
}
