/**
 * web-llm and WebGPU failures as ApiErrors a person can act on. web-llm throws plain
 * `Error` subclasses (matched here by `name`, which its classes set) and lets browser
 * errors through (`QuotaExceededError`, `TypeError: Failed to fetch`, wasm `CompileError`),
 * so classification reads names first, then messages.
 *
 * Status and type follow OpenAI: engine and device failures are 500 `server_error`, an
 * unknown model id 404 `model_not_found`, a prompt too long for the context window 400
 * `context_length_exceeded`. The `code` says which failure it was.
 */
import { ApiError, invalidRequest, notFound, serverError } from '../shared/api-error';
import { Codes } from '../shared/error-codes';

export type EngineFailureKind =
  | 'aborted'
  | 'webgpu'
  | 'gpu_memory'
  | 'device_lost'
  | 'quota'
  | 'download'
  | 'corrupt'
  | 'context'
  | 'invalid_request'
  | 'unknown';

/** A model file that could not be fetched or read (see `download-probe.ts`). */
export interface FileProblem {
  url: string;
  /** HTTP status, when the server answered. */
  status?: number;
  /** What went wrong, in a few words (`HTTP 404`, `network error: …`, `not valid JSON`). */
  problem: string;
}

export interface LoadFailureContext {
  /** Our model id. */
  model: string;
  /** web-llm's id of the build that was loading (e.g. `Qwen3-1.7B-q4f32_1-MLC`). */
  variantId: string;
  vramBytes: number;
  downloadBytes: number;
  /** The compiled model library's URL: the file a wasm compile error is about. */
  modelLibUrl?: string;
  /** A file found missing or unreadable after a download failure. */
  file?: FileProblem | null;
  /** Origin storage at the time of a quota failure. */
  storage?: { usageBytes: number; quotaBytes: number } | null;
  /** A smaller catalog model to suggest when memory runs out. */
  smallerModel?: string;
}

const WEBGPU_ERRORS = new Set(['WebGPUNotAvailableError', 'WebGPUNotFoundError', 'ShaderF16SupportError', 'FeatureSupportError']);
const CORRUPT_ERRORS = new Set(['IntegrityError', 'CompileError', 'LinkError', 'SyntaxError', 'ArtifactManifestError', 'UnsupportedTokenizerFilesError']);
const REQUEST_ERRORS = new Set([
  'ConfigValueError',
  'MinValueError',
  'NonNegativeError',
  'InvalidNumberStringError',
  'DependencyError',
  'MessageOrderError',
  'SystemMessageOrderError',
  'UnsupportedRoleError',
  'ContentTypeError',
  'InvalidResponseFormatError',
  'GrammarMatcherInitError',
  'UnsupportedFieldsError',
]);

function describe(err: unknown): { name: string; message: string } {
  if (err instanceof Error || (typeof err === 'object' && err !== null && 'message' in err)) {
    const e = err as { name?: unknown; message?: unknown };
    return { name: typeof e.name === 'string' ? e.name : '', message: String(e.message ?? '') };
  }
  return { name: '', message: String(err) };
}

/** Which kind of failure `err` is; see the file header for how. */
export function classifyEngineError(err: unknown): EngineFailureKind {
  const { name, message } = describe(err);
  if (name === 'AbortError') return 'aborted';
  if (name === 'QuotaExceededError') return 'quota';
  if (name === 'ContextWindowSizeExceededError') return 'context';
  if (WEBGPU_ERRORS.has(name)) return 'webgpu';
  if (name === 'DeviceLostError') return 'device_lost';
  if (name === 'GPUOutOfMemoryError') return 'gpu_memory';
  if (CORRUPT_ERRORS.has(name)) return 'corrupt';
  if (REQUEST_ERRORS.has(name)) return 'invalid_request';
  if (/quota/i.test(message)) return 'quota';
  if (/Unable to find a compatible GPU|Cannot initialize runtime because of requested/i.test(message)) return 'webgpu';
  if (/out of memory|\bOOM\b|allocation failed|failed to allocate/i.test(message)) return 'gpu_memory';
  if (/device (?:was |is |has been )?lost|lost the (?:gpu )?device|Instance\.dispose/i.test(message)) return 'device_lost';
  if (/magic word|not valid JSON|Unexpected token|Unexpected end of JSON|Integrity verification failed|but shape requires/i.test(message)) return 'corrupt';
  if (/failed to fetch|networkerror|network error|load failed|request failed|cannot fetch|unable to fetch|received status|network response was not ok|failed to store/i.test(message))
    return 'download';
  // web-llm's own RangeError (a parameter out of range) shares its name with the built-in one.
  if (/Role is not supported|^Make sure /i.test(message)) return 'invalid_request';
  return 'unknown';
}

/** `1.2 GB`, `850 MB`: decimal units, as storage settings and download dialogs show them. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`;
  if (bytes >= 1e3) return `${Math.round(bytes / 1e3)} kB`;
  return `${Math.max(0, Math.round(bytes))} bytes`;
}

function firstSentence(message: string): string {
  const line = message.split('\n')[0] ?? message;
  return line.length > 300 ? `${line.slice(0, 297)}…` : line;
}

export function modelNotFound(model: string, available: readonly string[]): ApiError {
  return notFound(`The model '${model}' does not exist. Available models: ${available.join(', ')}.`, 'model', Codes.modelNotFound);
}

export function webGpuUnavailable(reason: string): ApiError {
  return serverError(`This model needs the GPU (WebGPU), which this browser can't use: ${reason}`, Codes.webgpuUnavailable);
}

/** Not enough origin storage for a download; says how much is needed and how much is free. */
export function quotaExceeded(model: string, neededBytes: number, storage: { usageBytes: number; quotaBytes: number } | null | undefined): ApiError {
  const free = storage ? Math.max(0, storage.quotaBytes - storage.usageBytes) : null;
  const room =
    storage && free !== null
      ? ` and this site can store only ${formatBytes(free)} more (${formatBytes(storage.usageBytes)} of ${formatBytes(storage.quotaBytes)} in use)`
      : '';
  return serverError(
    `Not enough storage to download ${model}: it needs about ${formatBytes(neededBytes)}${room}. ` +
      'Delete cached models you no longer use, free disk space (the browser gives each site a share of the free disk), or choose a smaller model.',
    Codes.quotaExceeded,
  );
}

function fileSentence(file: FileProblem): string {
  return `${file.url} ${file.status !== undefined ? `answered HTTP ${file.status}` : `failed (${file.problem})`}`;
}

/** Maps a failure of `ensureLoaded` (download, compile, GPU setup). */
export function loadError(err: unknown, ctx: LoadFailureContext): ApiError {
  if (err instanceof ApiError) return err;
  const { message } = describe(err);
  const detail = firstSentence(message);
  const smaller = ctx.smallerModel ? ` such as ${ctx.smallerModel}` : '';
  let kind = classifyEngineError(err);
  // A file the probe found missing explains an unclassified failure, and a "corrupt" model
  // library that is really an error page (web-llm fetches relative libraries unchecked).
  if (ctx.file && (kind === 'unknown' || (kind === 'corrupt' && ctx.file.status !== undefined))) kind = 'download';
  switch (kind) {
    case 'webgpu':
      return webGpuUnavailable(detail);
    case 'gpu_memory':
    case 'device_lost':
      // web-llm allocates all GPU memory during reload; an allocation failure destroys the
      // device, so a device lost while loading is (almost always) the GPU running out of memory.
      return serverError(
        `The GPU ran out of memory loading ${ctx.model}, which needs about ${formatBytes(ctx.vramBytes)} of GPU memory (${detail}). ` +
          `Close other tabs or apps that use the GPU, or choose a smaller model${smaller}.`,
        Codes.gpuOutOfMemory,
      );
    case 'quota':
      return quotaExceeded(ctx.model, ctx.downloadBytes, ctx.storage);
    case 'corrupt': {
      const url = ctx.file?.url ?? (/magic word|CompileError|LinkError/i.test(`${describe(err).name} ${message}`) ? ctx.modelLibUrl : undefined);
      return serverError(
        `A file of ${ctx.model} is corrupt or not a model file${url ? ` (${url})` : ''}: ${detail}. ` +
          'Delete the model from the cache and load it again; if the files come from a mirror (modelBase), check its copy.',
        Codes.modelDownloadFailed,
      );
    }
    case 'download':
      return serverError(
        ctx.file
          ? `Downloading ${ctx.model} failed: ${fileSentence(ctx.file)}. Check that the model source (modelBase or Hugging Face) serves this file, then retry.`
          : `Downloading ${ctx.model} failed (${detail}). Check the network connection and that the model files are reachable, then retry; files already downloaded are kept.`,
        Codes.modelDownloadFailed,
      );
    case 'context':
      return contextOverflow(message);
    default:
      return serverError(`Loading ${ctx.model} failed: ${detail}`, Codes.modelLoadFailed);
  }
}

function contextOverflow(message: string): ApiError {
  const numbers = /prompt tokens:\s*(\d+);\s*context window size:\s*(\d+)/.exec(message);
  const counts = numbers ? ` (${numbers[1]} new prompt tokens, ${numbers[2]} allowed including the conversation so far)` : '';
  return invalidRequest(
    `Your input exceeds the context window of this model${counts}. Shorten the input or start a new conversation without previous_response_id.`,
    'input',
    Codes.contextLengthExceeded,
  );
}

/** Maps a failure of `generate` (prefill or decode). */
export function generationError(err: unknown, ctx: { model: string }): ApiError {
  if (err instanceof ApiError) return err;
  const { name, message } = describe(err);
  const detail = firstSentence(message);
  switch (classifyEngineError(err)) {
    case 'context':
      return contextOverflow(message);
    case 'invalid_request':
      return name === 'GrammarMatcherInitError'
        ? invalidRequest(`The JSON schema of text.format cannot be used for constrained output: ${detail}`, 'text.format', Codes.invalidJsonSchema)
        : invalidRequest(`${ctx.model} cannot take this request: ${detail}`);
    case 'gpu_memory':
    case 'device_lost':
      return serverError(
        `The GPU device was lost while ${ctx.model} was generating (${detail}). This response failed; the model is loaded again for the next request. ` +
          'If it keeps happening, close other tabs that use the GPU or choose a smaller model.',
        Codes.deviceLost,
      );
    default:
      return serverError(`${ctx.model} failed while generating: ${detail}`, Codes.engineError);
  }
}
