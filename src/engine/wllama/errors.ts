/**
 * wllama failures as ApiErrors a person can act on. wllama throws plain `Error`s (download
 * failures: `Failed to fetch <url>: HTTP <status>`), `WllamaError`s with a `type`
 * (`inference_error` for what llama.cpp's server reported, e.g. `request (302 tokens)
 * exceeds the available context size (256 tokens), try increasing it`), and wasm
 * `RuntimeError`s (out of memory, a file that is not a model).
 */
import { invalidRequest, serverError, type ApiError } from '../../shared/api-error';
import { formatBytes, generationError, loadError } from '../engine-errors';
import { Codes } from '../../shared/error-codes';

export interface WllamaLoadContext {
  model: string;
  /** The GGUF file's URL. */
  url: string;
  downloadBytes: number;
  /** Whether the download had finished when the failure happened. */
  downloaded: boolean;
  storage?: { usageBytes: number; quotaBytes: number } | null;
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'object' && err !== null && 'message' in err) return String((err as { message: unknown }).message);
  return String(err);
}

function nameOf(err: unknown): string {
  return typeof err === 'object' && err !== null && 'name' in err ? String((err as { name: unknown }).name) : '';
}

const OUT_OF_MEMORY = /out of memory|\bOOM\b|Cannot enlarge memory|failed to allocate|allocation failed|Array buffer allocation failed/i;

function outOfMemory(model: string, sizeBytes: number, detail: string): ApiError {
  return serverError(
    `${model} ran out of memory in the WebAssembly engine (${detail}); it needs about ${formatBytes(sizeBytes)} plus its context. ` +
      'Close other tabs, or choose a smaller model.',
    Codes.outOfMemory,
  );
}

/** Maps a failure of loading a GGUF model (download, cache, llama.cpp's load). */
export function wllamaLoadError(err: unknown, ctx: WllamaLoadContext): ApiError {
  const message = messageOf(err);
  const detail = message.split('\n')[0] ?? message;
  if (OUT_OF_MEMORY.test(message)) return outOfMemory(ctx.model, ctx.downloadBytes, detail);
  const status = /Failed to fetch .*: HTTP (\d{3})/.exec(message);
  const failure = { model: ctx.model, variantId: ctx.model, vramBytes: 0, downloadBytes: ctx.downloadBytes, storage: ctx.storage ?? null };
  if (status) return loadError(err, { ...failure, file: { url: ctx.url, status: Number(status[1]), problem: `HTTP ${status[1]}` } });
  if (nameOf(err) === 'QuotaExceededError' || /quota/i.test(message)) return loadError(err, failure);
  // A fetch that failed without an answer (offline, CORS, connection reset) during the download.
  if (!ctx.downloaded && (nameOf(err) === 'TypeError' || /fetch|network/i.test(message))) {
    return loadError(err, { ...failure, file: { url: ctx.url, problem: detail } });
  }
  return serverError(`Loading ${ctx.model} from ${ctx.url} failed: ${detail}`, Codes.modelLoadFailed);
}

/** llama.cpp loaded the file but found no vocabulary: it is not a GGUF model (an error page, a truncated download). */
export function notAGgufModel(model: string, url: string): ApiError {
  return serverError(
    `${url} is not a valid GGUF model (llama.cpp read no vocabulary from it), so ${model} cannot load. ` +
      'Check that the model source (modelBase or Hugging Face) serves the real .gguf file at that URL — a server that answers a missing file with an HTML page causes this — then retry; the bad copy was removed from the cache.',
    Codes.modelLoadFailed,
  );
}

/**
 * How `engineStartTimeout` says that a probe of the wasm found nothing wrong with it: the
 * engine's worker itself did not come up. (The Firefox e2e tests tell the test driver's
 * nested-worker deadlock by it from a real cause: test/support/firefox.ts.)
 */
export const WASM_FOUND_FINE = 'is served and valid, so the engine’s worker itself did not come up';

/** The wasm engine did not come up within the load timeout. `wasmProblem` says what a probe of the wasm URL found (null: nothing). */
export function engineStartTimeout(model: string, wasmUrl: string, timeoutMs: number, wasmProblem: string | null): ApiError {
  const seconds = Math.round(timeoutMs / 1000);
  const cause = wasmProblem ? `${wasmUrl} ${wasmProblem}` : `its WebAssembly module ${wasmUrl} ${WASM_FOUND_FINE} (blocked, out of memory, or stuck starting its threads)`;
  return serverError(
    `The llama.cpp WebAssembly engine did not start within ${seconds} s while loading ${model}: ${cause}. ` +
      'Check that wllama.wasm is served at that URL (from the same @wllama/wllama release as the code), then retry.',
    Codes.modelLoadFailed,
  );
}

/** The model file stopped arriving for the whole load timeout. */
export function downloadStalled(model: string, url: string, timeoutMs: number, loadedBytes: number): ApiError {
  return serverError(
    `Downloading ${model} stalled: no data from ${url} for ${Math.round(timeoutMs / 1000)} s (${formatBytes(loadedBytes)} received). ` +
      'Check the network connection and the model source, then retry.',
    Codes.modelDownloadFailed,
  );
}

/** A model id with no file source: a test model asked for without a mirror. */
export function noModelSource(model: string, file: string): ApiError {
  return serverError(`${model} has no download source: it is served only from a model mirror (modelBase), as ${file}. Configure modelBase.`, Codes.modelDownloadFailed);
}

/** Maps a failure of `createCompletion` or of reading its stream. */
export function wllamaGenerationError(err: unknown, ctx: { model: string; sizeBytes: number }): ApiError {
  const message = messageOf(err);
  const context = /request \((\d+) tokens\) exceeds the available context size \((\d+) tokens\)/.exec(message);
  if (context) {
    return invalidRequest(
      `Your input exceeds the context window of this model (${context[1]} prompt tokens, ${context[2]} allowed). ` +
        'Shorten the input or start a new conversation without previous_response_id.',
      'input',
      Codes.contextLengthExceeded,
    );
  }
  if (OUT_OF_MEMORY.test(message)) return outOfMemory(ctx.model, ctx.sizeBytes, message.split('\n')[0] ?? message);
  return generationError(err, { model: ctx.model });
}

/** True for what a wllama context-size refusal looks like (the engine stays healthy). */
export function isContextOverflow(err: unknown): boolean {
  return /exceeds the available context size/.test(messageOf(err));
}
