/**
 * Size budget of the package's page-side entry (`local-responses`): what a page must load
 * before `/v1` answers — the entry and every chunk it imports statically — gzipped, at most
 * 30 kB (1000-based, as everywhere in the project). Engines and tools load in the runtime
 * worker, on demand, and are not counted; the worker is stubbed out of this build (its own
 * bundle is not the page's, and building it takes most of the time).
 */
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { build, type Plugin, type Rolldown } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entry = fileURLToPath(new URL('../../src/package/index.ts', import.meta.url));
const BUDGET_BYTES = 30_000;

/** The runtime worker's bundle, replaced by an empty module. */
function stubWorker(): Plugin {
  return {
    name: 'stub-runtime-worker',
    enforce: 'pre',
    load(id) {
      return id.split('?')[0]!.endsWith('/runtime/runtime-worker.ts') ? 'export {};' : null;
    },
  };
}

test('the page-side entry is at most 30 kB gzipped', { timeout: 120_000 }, async () => {
  const result = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    base: './',
    publicDir: false,
    worker: { format: 'es', plugins: () => [stubWorker()] },
    // As src/package/vite.package.config.ts builds it.
    build: {
      write: false,
      minify: true,
      target: 'es2022',
      modulePreload: false,
      rolldownOptions: { input: { index: entry }, preserveEntrySignatures: 'strict', output: { format: 'es' } },
    },
  });
  const output = (Array.isArray(result) ? result[0]! : result) as Rolldown.RolldownOutput;
  const chunks = new Map(output.output.filter((file): file is Rolldown.OutputChunk => file.type === 'chunk').map((chunk) => [chunk.fileName, chunk]));
  const start = [...chunks.values()].find((chunk) => chunk.isEntry);
  expect(start).toBeDefined();
  // The entry and its static imports: what loads before startLocalRuntime can run.
  const loaded = new Set<string>();
  const visit = (name: string) => {
    if (loaded.has(name) || !chunks.has(name)) return;
    loaded.add(name);
    for (const next of chunks.get(name)!.imports) visit(next);
  };
  visit(start!.fileName);
  const gzipped = [...loaded].reduce((sum, name) => sum + gzipSync(chunks.get(name)!.code, { level: 9 }).length, 0);
  console.log(`package page entry: ${[...loaded].join(' + ')} = ${(gzipped / 1000).toFixed(1)} kB gzipped (budget ${BUDGET_BYTES / 1000} kB)`);
  expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
});
