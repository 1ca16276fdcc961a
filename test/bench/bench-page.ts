/**
 * Bench-only page (`/test/bench/bench.html`; vite.config.ts adds it to the build only when
 * LOCAL_RESPONSES_BENCH=1, which the bench:* npm scripts set). It starts the origin's local
 * runtime exactly as an app does (`startLocalRuntime`, test models on) and exposes what the
 * end-to-end tests get from the app page (`window.sdk`, `window.localRuntime`), plus
 * `window.bench`: the bench worker, the server called with no transport (bench-worker.ts).
 * Nothing of this is in the product's build.
 */
import * as Comlink from 'comlink';
import { startLocalRuntime } from 'local-responses';
import { cpuEngine } from 'local-responses/cpu';
import { installTestHooks } from '../../src/ui/test-hooks';
import type { BenchWorker } from './bench-worker';
import { chunkText } from '../../src/server/files/chunk-text';
import { minisearchIndexes } from '../../src/tools/file-search/minisearch-index';
import { testEmbedding } from '../../src/engine/test-embedder';

declare global {
  interface Window {
    /** Bench page only: the no-transport baseline (bench-worker.ts). */
    bench?: Comlink.Remote<BenchWorker>;
    /** Bench page only: file search's own pieces, for baselines in the page (file-search-bench.ts). */
    benchFileSearch?: { chunkText: typeof chunkText; indexes: typeof minisearchIndexes; testEmbedding: typeof testEmbedding };
  }
}

window.benchFileSearch = { chunkText, indexes: minisearchIndexes, testEmbedding };

const worker = new Worker(new URL('./bench-worker.ts', import.meta.url), { type: 'module', name: 'local-responses-bench' });
const bench = Comlink.wrap<BenchWorker>(worker);
const modelBase = new URLSearchParams(location.search).get('model-base');

// The browser's own fetch (window.swSdk: `/v1` through the service worker), taken before startLocalRuntime routes `/v1`.
const browserFetch = globalThis.fetch.bind(globalThis);
Promise.all([startLocalRuntime({ testModels: true, cpuEngine }).then((runtime) => installTestHooks(runtime, browserFetch)), bench.start(modelBase ? { modelBase } : {})]).then(
  () => {
    window.bench = bench;
    document.body.dataset.bench = 'ready';
  },
  (error: unknown) => {
    document.body.dataset.bench = 'failed';
    document.body.textContent = error instanceof Error ? error.message : String(error);
  },
);
