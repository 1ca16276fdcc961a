import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build, type InlineConfig, type Plugin } from 'vite';
import { injectManifest } from 'workbox-build';
import { configDefaults, defineConfig } from 'vitest/config';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isolationHeaders } from './src/pwa/isolation-headers';
import { securityHeaders } from './src/pwa/security-headers';
import { compressedFiles } from './src/build/compressed-files';

const root = fileURLToPath(new URL('.', import.meta.url));
const swEntry = fileURLToPath(new URL('src/pwa/sw.ts', import.meta.url));

/**
 * The service worker is built on its own, as one classic IIFE script at `/sw.js`:
 * - scope `/` needs the script at the root, outside the hashed `assets/`;
 * - a classic script registers in every browser with service workers (module service
 *   workers came late to Firefox), and one self-contained file means an SW update check
 *   compares exactly one script.
 */
function swBuild(outDir: string, write: boolean): InlineConfig {
  return {
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    resolve: { alias: packageSelfReference() },
    // Library mode keeps `process.env.NODE_ENV`; Workbox reads it to drop its dev logging.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir,
      emptyOutDir: false,
      write,
      minify: true,
      sourcemap: false,
      lib: { entry: swEntry, formats: ['iife'], name: 'localResponsesSw', fileName: () => 'sw.js' },
    },
  };
}

/**
 * What the first visit does not wait for: pyodide, every WebAssembly module (wllama's CPU
 * engine), the chunks the runtime worker imports only when a feature is first used
 * (`assets/deferred/`, see `worker.rolldownOptions`: web-llm, wllama, web search's reader)
 * and the 512 px icons (for installing; the page shows none of them). The service worker fetches them in the
 * background after the runtime's first answer (src/pwa/offline-files.ts), or at first use.
 */
const DEFERRED_GLOBS = ['pyodide/**', '**/*.wasm', 'assets/deferred/**', 'assets/extract-worker-*.js', 'assets/program-worker-main-*.js', 'assets/pdf.worker.min-*.mjs', 'icons/*-512.png'];
/** Never precached: sw.js is the worker itself (the browser's update check fetches a new one). */
const NOT_PRECACHED = ['sw.js', '**/*.map', '**/*.br', '**/*.gz'];
const PRECACHE_GLOBS = ['**/*.{html,js,mjs,css,wasm,json,zip,webmanifest,svg,png,ico,txt,data,tar}'];

/**
 * PWA precache, in two lists that workbox-build writes (URL + revision) into `sw.js`:
 * - the app shell at `self.__WB_MANIFEST` (src/pwa/precache.ts): everything but the deferred
 *   files; installed before the service worker takes over, so "Ready" waits for it only;
 * - the deferred files at `self.__OFFLINE_FILES` (src/pwa/offline-files.ts), each with its
 *   size and the feature it belongs to, so the app can say what is not offline yet.
 * Hashed files under `assets/` are their own revision. Big files are allowed (wasm, zip).
 */
async function precacheAppShell(outDir: string): Promise<void> {
  const swPath = `${outDir}/sw.js`;
  const common = { swSrc: swPath, swDest: swPath, globDirectory: outDir, globPatterns: PRECACHE_GLOBS, dontCacheBustURLsMatching: /^assets\//, maximumFileSizeToCacheInBytes: 64 * 1024 * 1024 };
  const shell = await injectManifest({ ...common, globIgnores: [...NOT_PRECACHED, ...DEFERRED_GLOBS] });
  const deferred = await injectManifest({
    ...common,
    injectionPoint: 'self.__OFFLINE_FILES',
    globIgnores: NOT_PRECACHED,
    globPatterns: DEFERRED_GLOBS,
    manifestTransforms: [(entries) => ({ manifest: entries.map((entry) => ({ ...entry, bytes: entry.size, feature: deferredFeature(entry.url) })) })],
  });
  for (const warning of [...shell.warnings, ...deferred.warnings]) console.warn(`precache: ${warning}`);
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  console.log(`precache: app shell ${shell.count} files, ${mb(shell.size)} MB; later ${deferred.count} files, ${mb(deferred.size)} MB`);
}

/** Lazy chunks named for their package where their own name (`esm`, `index`) says nothing. */
function deferredChunkName(moduleIds: readonly string[]): string {
  if (moduleIds.some((id) => id.includes('/@wllama/'))) return 'wllama';
  // A GGUF's own chat template (Jinja): parsed when a CPU model loads.
  if (moduleIds.some((id) => id.includes('/@huggingface/jinja/'))) return 'wllama-template';
  if (moduleIds.some((id) => id.includes('/@mlc-ai/web-llm/'))) return 'web-llm';
  if (moduleIds.some((id) => id.includes('/mammoth/'))) return 'mammoth';
  if (moduleIds.some((id) => id.includes('/pdfjs-dist/'))) return 'pdfjs';
  return '[name]';
}

/** Which feature a deferred file belongs to (as `OfflineFeature` in src/protocol/offline-files.ts). */
function deferredFeature(url: string): string {
  if (url.startsWith('pyodide/')) return 'python';
  if (/^assets\/(deferred\/)?wllama-/.test(url)) return 'cpu-engine';
  if (/^assets\/deferred\/readable-text-/.test(url)) return 'web-search';
  if (/^assets\/deferred\/web-llm-/.test(url)) return 'gpu-engine';
  // Reading and searching uploaded files: the extraction worker, pdf.js (and its worker), mammoth, the index.
  if (/^assets\/(deferred\/(pdfjs|mammoth|minisearch-index)-|extract-worker-|pdf\.worker\.min-)/.test(url)) return 'file-search';
  // Programmatic tool calling: the sandbox worker, QuickJS's wasm and its loader.
  if (/^assets\/(program-worker-main-|(deferred\/)?emscripten-module[.-])/.test(url)) return 'programs';
  return 'other';
}

function serviceWorker(): Plugin {
  let outDir = 'dist';
  return {
    name: 'local-responses:service-worker',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    // After the page build (which empties outDir), add dist/sw.js with its precache list.
    // Last and alone: files other plugins add to outDir in closeBundle (pyodide) are listed.
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (this.environment?.config.command !== 'build') return;
        await build(swBuild(outDir, true));
        await precacheAppShell(outDir);
      },
    },
    // Dev: build the SW in memory on each request so it stays one classic script.
    configureServer(server) {
      server.middlewares.use('/sw.js', async (_req, res, next) => {
        try {
          const result = await build(swBuild(outDir, false));
          const output = (Array.isArray(result) ? result[0] : result) as { output: { code?: string }[] };
          res.setHeader('content-type', 'text/javascript');
          res.end(output.output[0]?.code ?? '');
        } catch (error) {
          next(error);
        }
      });
    },
  };
}

/**
 * pyodide's runtime files, same-origin at `/pyodide/` (the runtime fetches them and hands
 * them to the Python sandbox as Blobs, so no CORS is needed; see src/tools/python/).
 * `publicDir` cannot do it: it is one folder (public/), and would take the whole package.
 * Build: emitted as assets (before the SW's precache list is made); dev: read from
 * node_modules; `vite preview` (`npm start`) serves them from dist/ like any file.
 */
function pyodideFiles(): Plugin {
  const dir = fileURLToPath(new URL('node_modules/pyodide/', import.meta.url));
  // As PYODIDE_FILES in src/tools/python/pyodide-files.ts (a unit test keeps them equal).
  const names = ['pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'];
  return {
    name: 'local-responses:pyodide',
    async generateBundle() {
      for (const name of names) this.emitFile({ type: 'asset', fileName: `pyodide/${name}`, source: await readFile(dir + name) });
    },
    configureServer(server) {
      server.middlewares.use('/pyodide', (req, res, next) => {
        const name = (req.url ?? '').split('?')[0]!.slice(1);
        if (!names.includes(name)) return next();
        readFile(dir + name).then((body) => res.end(body), next);
      });
    },
  };
}

/**
 * Cross-origin isolation (COOP + COEP, see src/pwa/isolation-headers.ts) on every file the
 * dev server and `vite preview` (`npm start`) send. A middleware rather than the static
 * `headers` option: COEP depends on the requesting browser (`credentialless` where it
 * exists, `require-corp` otherwise), read from its `Sec-CH-UA` and `User-Agent`.
 */
function crossOriginIsolation(): Plugin {
  const isolate = (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const headers = isolationHeaders({ userAgent: req.headers['user-agent'] ?? null, brands: (req.headers['sec-ch-ua'] as string | undefined) ?? null });
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    next();
  };
  return {
    name: 'local-responses:cross-origin-isolation',
    configureServer: (server) => void server.middlewares.use(isolate),
    configurePreviewServer: (server) => void server.middlewares.use(isolate),
  };
}

/**
 * Our app consumes the runtime as any app does, through the package's public entries
 * (`local-responses`, `local-responses/sw`, `local-responses/python`, `local-responses/cpu`): here they resolve to
 * their sources, so the app needs no package build (as tsconfig.json's `paths`).
 */
function packageSelfReference(): { find: RegExp; replacement: string }[] {
  const entry = (name: string) => fileURLToPath(new URL(`src/package/${name}`, import.meta.url));
  return [
    { find: /^local-responses$/, replacement: entry('index.ts') },
    { find: /^local-responses\/sw$/, replacement: entry('sw.ts') },
    { find: /^local-responses\/python$/, replacement: entry('python.ts') },
    { find: /^local-responses\/cpu$/, replacement: entry('cpu.ts') },
  ];
}

/**
 * Bench-only page and worker (test/bench/bench-page.ts): in the build only when
 * LOCAL_RESPONSES_BENCH=1 (the bench:* npm scripts set it), so no benchmark code ships.
 */
const benchBuild = process.env.LOCAL_RESPONSES_BENCH === '1';

/** The Firefox end-to-end set: a project of its own, left out of the Chromium one. */
const FIREFOX_E2E = 'test/e2e/firefox/**/*.test.ts';
const pages = {
  index: fileURLToPath(new URL('index.html', import.meta.url)),
  ...(benchBuild ? { bench: fileURLToPath(new URL('test/bench/bench.html', import.meta.url)) } : {}),
};

export default defineConfig({
  // compressedFiles after serviceWorker: its closeBundle runs after the precache lists are made.
  plugins: [crossOriginIsolation(), serviceWorker(), pyodideFiles(), compressedFiles()],
  // The runtime worker's lazily imported chunks (wllama, web search's reader, …) are not
  // needed to start: they go to `assets/deferred/`, fetched after "Ready" (DEFERRED_GLOBS).
  // Rolldown's own helpers (`rolldown-runtime`, < 1 kB) become a chunk of their own when the
  // worker and a lazy chunk both need them: the worker imports it at start, so it is shell.
  worker: {
    format: 'es',
    rolldownOptions: {
      output: {
        chunkFileNames: (chunk) => (chunk.name === 'rolldown-runtime' ? 'assets/[name]-[hash].js' : `assets/deferred/${deferredChunkName(chunk.moduleIds)}-[hash].js`),
      },
    },
  },
  resolve: { alias: packageSelfReference() },
  build: { target: 'es2022', rolldownOptions: { input: pages } },
  // Vite answers localhost origins with CORS headers by default; this origin's pages are
  // for this origin only (another origin must not read them, /v1 least of all).
  server: { cors: false, headers: securityHeaders({ dev: true }) },
  // As the service worker adds them to what it serves from the precache (src/pwa/precache.ts).
  preview: { cors: false, headers: securityHeaders() },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/**/*.test.ts', 'test/node/**/*.test.ts', 'test/support/**/*.test.ts'],
          // Type tests (`*.test-d.ts`, expectTypeOf): checked by tsc inside the unit run, so
          // a drifted type fails `npm run test:unit` like any other test.
          typecheck: { enabled: true, include: ['test/node/**/*.test-d.ts'], tsconfig: './test/node/tsconfig.type-tests.json' },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          exclude: [...configDefaults.exclude, FIREFOX_E2E],
          // One Chromium at a time on a 2-core machine: files run one after another.
          fileParallelism: false,
          maxWorkers: 1,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // The second browser: Firefox ESR over WebDriver BiDi (test/support/firefox.ts).
          // Its own run after the Chromium one (`npm run test:e2e`), never beside it.
          name: 'e2e-firefox',
          environment: 'node',
          include: [FIREFOX_E2E],
          // Every driver-deadlock retry listed at the end; more than two fail the run.
          globalSetup: ['test/support/firefox-retries-setup.ts'],
          fileParallelism: false,
          maxWorkers: 1,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // `npm run test:webllm`: the real web-llm engine on SwiftShader with the tiny model of
          // test/fixtures/webllm-tiny/. A project of its own: shader compilation on the CPU
          // makes its first load minutes long.
          name: 'webllm',
          environment: 'node',
          include: ['test/webllm/**/*.test.ts'],
          fileParallelism: false,
          maxWorkers: 1,
          testTimeout: 300_000,
          hookTimeout: 600_000,
        },
      },
      {
        extends: true,
        test: {
          // `npm run bench:pipeline` only; prints a table instead of asserting speed.
          name: 'bench',
          environment: 'node',
          // The benchmarks; the other files of test/bench/ are the bench page, worker and helpers.
          include: ['test/bench/{pipeline,wasm-bench,webllm-bench,cpu-bench,first-visit-bench,history-bench,file-search-bench,websocket-bench,upstream-bench,routes-bench,storage-bench,tool-search-bench}.ts'],
          fileParallelism: false,
          maxWorkers: 1,
          hookTimeout: 60_000,
          disableConsoleIntercept: true,
        },
      },
    ],
  },
});
