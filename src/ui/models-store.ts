/**
 * The model catalog as the picker shows it: `/v1/models` joined with `/v1/local/status`
 * (cached, loaded, GPU, storage), and the downloads in flight with their progress.
 */
import { LocalApiError, type Api, type LoadProgress, type LocalStatus, type ModelEntry } from './api';
import { ExternalStore } from './external-store';
import type { ProgressSample } from './format';
import type { LoadFailure } from './load-failure';

export interface Download {
  first: ProgressSample;
  latest: ProgressSample;
  phase: LoadProgress['phase'];
  text: string;
}

export interface ModelsState {
  /** True once `/v1/models` answered at least once. */
  loaded: boolean;
  error: string | null;
  models: ModelEntry[];
  /** null: this runtime has no model management (`/v1/local/*` answers 404), or its status failed (`statusError`). */
  status: LocalStatus | null;
  /** Why `/v1/local/status` could not be read (an error answer, or one that does not fit the contract). */
  statusError: string | null;
  downloads: Record<string, Download>;
  /** Last download/delete failure per model, shown next to it (the code picks the plain sentence). */
  failures: Record<string, LoadFailure>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function failureOf(error: unknown): LoadFailure {
  return { message: messageOf(error), code: error instanceof LocalApiError ? error.code : null };
}

function sample(p: LoadProgress): ProgressSample {
  return {
    at: Date.now(),
    progress: p.progress,
    ...(p.loadedBytes !== undefined ? { loadedBytes: p.loadedBytes } : {}),
    ...(p.totalBytes !== undefined ? { totalBytes: p.totalBytes } : {}),
  };
}

export class ModelsStore extends ExternalStore<ModelsState> {
  #api: Api | null = null;
  readonly #aborts = new Map<string, AbortController>();

  constructor() {
    super({ loaded: false, error: null, models: [], status: null, statusError: null, downloads: {}, failures: {} });
  }

  connect(api: Api): void {
    this.#api = api;
    void this.refresh();
  }

  async refresh(): Promise<void> {
    const api = this.#api;
    if (!api) return;
    try {
      // A broken status must not hide the catalog: the models still list, and the status's error is shown.
      const [models, local] = await Promise.all([
        api.listModels(),
        api.localStatus().then(
          (status) => ({ status, statusError: null }),
          (error: unknown) => ({ status: null, statusError: messageOf(error) }),
        ),
      ]);
      this.set({ ...this.get(), loaded: true, error: null, models, ...local });
    } catch (error) {
      this.set({ ...this.get(), loaded: true, error: messageOf(error) });
    }
  }

  cached(id: string): boolean | undefined {
    return this.get().status?.models.find((m) => m.id === id)?.cached;
  }

  async download(id: string): Promise<boolean> {
    const api = this.#api;
    if (!api || this.#aborts.has(id)) return false;
    const abort = new AbortController();
    this.#aborts.set(id, abort);
    const start: ProgressSample = { at: Date.now(), progress: 0 };
    this.#setDownload(id, { first: start, latest: start, phase: 'download', text: 'Starting…' });
    this.#setFailure(id, null);
    try {
      await api.loadModel(
        id,
        (p) => {
          const current = this.get().downloads[id];
          const latest = sample(p);
          // Speed is measured from the first sample that carries bytes (a resumed download starts part-way).
          const first = current && (current.first.loadedBytes !== undefined || latest.loadedBytes === undefined) ? current.first : latest;
          this.#setDownload(id, { first, latest, phase: p.phase, text: p.text });
        },
        abort.signal,
      );
      return true;
    } catch (error) {
      if (!abort.signal.aborted) this.#setFailure(id, failureOf(error));
      return false;
    } finally {
      this.#aborts.delete(id);
      this.#setDownload(id, null);
      await this.refresh();
    }
  }

  cancel(id: string): void {
    this.#aborts.get(id)?.abort(new DOMException('Download cancelled', 'AbortError'));
  }

  async deleteCached(id: string): Promise<void> {
    const api = this.#api;
    if (!api) return;
    try {
      await api.deleteCachedModel(id);
      this.#setFailure(id, null);
    } catch (error) {
      this.#setFailure(id, failureOf(error));
    }
    await this.refresh();
  }

  #setDownload(id: string, download: Download | null): void {
    const downloads = { ...this.get().downloads };
    if (download) downloads[id] = download;
    else delete downloads[id];
    this.set({ ...this.get(), downloads });
  }

  #setFailure(id: string, failure: LoadFailure | null): void {
    const failures = { ...this.get().failures };
    if (failure) failures[id] = failure;
    else delete failures[id];
    this.set({ ...this.get(), failures });
  }
}
