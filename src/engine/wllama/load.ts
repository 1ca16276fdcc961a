/**
 * One load of a GGUF into a wllama instance: download (or read from wllama's cache) and
 * load, with its progress reports and its watchdog — the load fails when neither download
 * progress nor the end of the load comes for `timeoutMs` (a wasm URL that does not answer
 * never settles otherwise). A file llama.cpp reads no vocabulary from is not a model
 * (loading it does not fail): it is dropped from wllama's cache and refused.
 *
 * With `kvCache` (a quantized KV cache), a model whose heads do not fit that cache either
 * reads as empty or would crash on its first token (kv-cache-fit.ts): the load resolves
 * KV_CACHE_MISFIT, and the engine loads it again without one — which also tells such a model
 * from a file that is not a model at all.
 */
import { abortReason } from '../../shared/abort';
import type { GgufCatalogEntry } from './gguf-catalog';
import { kvCacheFits } from './kv-cache-fit';
import type { LoadReports } from '../load-reports';
import { formatBytes } from '../engine-errors';
import { downloadStalled, engineStartTimeout, notAGgufModel, wllamaLoadError } from './errors';
import type { KvCacheType, WllamaContextInfo, WllamaLike, WllamaProgress } from './wllama-like';
import { probeWasm, quotaEstimate } from './load-diagnostics';

/** A load asked for a quantized KV cache the loaded model's heads do not fit. */
export const KV_CACHE_MISFIT = Symbol('kv-cache-misfit');

export interface LoadAttempt {
  entry: GgufCatalogEntry;
  url: string;
  signal: AbortSignal;
  reports: LoadReports;
  timeoutMs: number;
  /** The wasm, probed when the engine never starts (for an error that says why). */
  wasmUrl: string;
  fetchFn: ((input: string, init?: RequestInit) => Promise<Response>) | undefined;
  gpuLayers: number;
  threads: number;
  /** The KV cache's element type; absent: llama.cpp's f16. */
  kvCache?: KvCacheType | undefined;
}

function noop(): void {}

export function loadModelInto(wllama: WllamaLike, attempt: LoadAttempt): Promise<WllamaContextInfo | typeof KV_CACHE_MISFIT> {
  const { entry, url, signal, reports, timeoutMs, wasmUrl, kvCache } = attempt;
  const model = entry.id;
  let downloaded = false;
  let loadedBytes = 0;
  reports.report({ model, phase: 'download', progress: 0, loadedBytes: 0, totalBytes: entry.downloadBytes, text: `Downloading ${entry.label}` });

  return new Promise<WllamaContextInfo | typeof KV_CACHE_MISFIT>((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    const fail = (err: unknown) => {
      if (settled) return;
      finish();
      // Terminates the worker (or nothing, when it never started); a pending load rejects.
      void wllama.exit().catch(noop);
      reject(err);
    };
    const settleWith = (value: WllamaContextInfo | typeof KV_CACHE_MISFIT) => {
      finish();
      resolve(value);
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!downloaded) return fail(downloadStalled(model, url, timeoutMs, loadedBytes));
        void probeWasm(wasmUrl, attempt.fetchFn).then((problem) => fail(engineStartTimeout(model, wasmUrl, timeoutMs, problem)));
      }, timeoutMs);
    };
    const onAbort = () => fail(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    arm();

    const onDownload = ({ loaded, total }: WllamaProgress) => {
      if (settled) return;
      const totalBytes = total > 0 ? total : entry.downloadBytes;
      loadedBytes = loaded;
      arm();
      if (loaded >= totalBytes) {
        downloaded = true;
        reports.report({ model, phase: 'compile', progress: 0, loadedBytes: loaded, totalBytes, text: `Loading ${entry.label} into the WebAssembly engine` });
        return;
      }
      reports.report({
        model,
        phase: 'download',
        progress: Math.min(1, loaded / totalBytes),
        loadedBytes: loaded,
        totalBytes,
        text: `Downloading ${entry.label}: ${formatBytes(loaded)} of ${formatBytes(totalBytes)}`,
      });
    };

    wllama
      .loadModelFromUrl(url, {
        n_ctx: entry.context_window,
        n_gpu_layers: attempt.gpuLayers,
        n_threads: attempt.threads,
        // A quantized V cache needs flash attention on (llama.cpp refuses it otherwise).
        ...(kvCache ? { cache_type_k: kvCache, cache_type_v: kvCache, flash_attn: true } : {}),
        progressCallback: onDownload,
        signal,
      })
      .then(async () => {
        if (settled) return;
        const info = wllama.getLoadedContextInfo();
        if (kvCache && !(info.n_vocab > 0 && kvCacheFits(wllama.getModelMetadata().meta, kvCache))) return settleWith(KV_CACHE_MISFIT);
        if (!(info.n_vocab > 0)) {
          // wllama cached the bad file under its URL: without this every retry would fail the same way.
          await wllama.cacheManager.delete(url).catch(noop);
          return fail(notAGgufModel(model, url));
        }
        settleWith(info);
      })
      .catch(async (err: unknown) => {
        if (settled) return;
        if (signal.aborted) return fail(abortReason(signal));
        const storage = await quotaEstimate(err);
        fail(wllamaLoadError(err, { model, url, downloadBytes: entry.downloadBytes, downloaded, storage }));
      });
  });
}
