/**
 * A failed model download or load, said so a person can act on it: one plain sentence naming
 * what failed and what to do (the card's Retry button is that next step), with the runtime's
 * full message — URLs, `modelBase`, HTTP statuses — kept for a "Details" fold.
 */
import { Codes } from '../shared/error-codes';

export interface LoadFailure {
  /** The runtime's message, as it said it (shown under "Details"). */
  message: string;
  /** The OpenAI-shaped error code, when the runtime gave one. */
  code: string | null;
}

export interface LoadFailureView {
  summary: string;
  details: string;
  /** Whether trying again can help (false: this browser cannot run the model at all). */
  retryable: boolean;
}

/** The host of the first http(s) URL in `message` ("huggingface.co"), or null. */
export function hostIn(message: string): string | null {
  for (const match of message.matchAll(/https?:\/\/[^\s)"'<>,]+/g)) {
    try {
      return new URL(match[0]).host;
    } catch {
      // Not a URL after all: try the next one.
    }
  }
  return null;
}

export function describeLoadFailure(failure: LoadFailure, modelLabel: string): LoadFailureView {
  const { message, code } = failure;
  const details = message;
  const source = hostIn(message) ?? 'the model source';
  const status = /\bHTTP (\d{3})\b/.exec(message)?.[1];
  switch (code) {
    case Codes.webgpuUnavailable:
      return { summary: `${modelLabel} needs a GPU, and this browser can’t use one here. Choose a model that runs on this device.`, details, retryable: false };
    case Codes.wasmUnsupported:
      return { summary: `This browser can’t run the CPU engine ${modelLabel} needs. Use a current Chrome, Edge or Firefox.`, details, retryable: false };
    case Codes.quotaExceeded:
      return { summary: `Not enough storage for ${modelLabel}. Delete models you no longer use, or choose a smaller one, then Retry.`, details, retryable: true };
    case Codes.gpuOutOfMemory:
      return { summary: `The GPU ran out of memory loading ${modelLabel}. Close other tabs that use the GPU, or choose a smaller model.`, details, retryable: true };
    case Codes.modelDownloadFailed:
      if (/corrupt|not a model file|not a valid GGUF/i.test(message))
        return { summary: `A file of ${modelLabel} from ${source} is damaged or not a model file. Retry; if it keeps failing, choose another model.`, details, retryable: true };
      if (status)
        return { summary: `${source} refused a file of ${modelLabel} (HTTP ${status}). Retry later, or choose another model.`, details, retryable: true };
      return { summary: `Couldn’t reach ${source} — check your connection, then Retry.`, details, retryable: true };
    default:
      // An engine that reports a lost connection under a generic code still gets the plain network sentence.
      if (/failed to fetch|network ?error|connection (refused|reset)/i.test(message))
        return { summary: `Couldn’t reach ${source} — check your connection, then Retry.`, details, retryable: true };
      return { summary: `${modelLabel} couldn’t be loaded on this device. Retry, or choose another model.`, details, retryable: true };
  }
}
