/**
 * Bench-only worker (see bench-page.ts): the same server the runtime worker runs, composed
 * with `createLocalServer`, called in this thread with no transport at all — the baseline
 * the benchmarks compare the product's HTTP path with. It keeps its own database, so it
 * never touches (or marks as interrupted) the runtime's responses.
 */
import * as Comlink from 'comlink';
import { createLocalServer, type LocalServer } from '../../src/runtime/composition-root';
import { cpuEngine } from 'local-responses/cpu';
import { timeDirectStream, type DirectStreamTiming } from './direct-stream';

declare const self: DedicatedWorkerGlobalScope;

const BENCH_DB_NAME = 'local-responses-bench';

let server: Promise<LocalServer> | undefined;

const api = {
  /** Composes the server once (test models on; `modelBase` as the runtime got it). */
  async start(options: { modelBase?: string }): Promise<void> {
    server ??= createLocalServer({ testModels: true, cpuEngine: { wasmUrl: new URL(cpuEngine.wasmUrl, self.location.href).href }, dbName: BENCH_DB_NAME, ...(options.modelBase ? { modelBase: options.modelBase } : {}) });
    await server;
  },
  /** POSTs `body` to `/v1/responses` on the in-thread server and reads the SSE body here. */
  async streamDirect(body: string): Promise<DirectStreamTiming> {
    if (!server) throw new Error('bench worker: call start() first');
    const local = await server;
    return timeDirectStream((request) => local.fetch(request), self.location.origin, body);
  },
};

export type BenchWorker = typeof api;

Comlink.expose(api);
