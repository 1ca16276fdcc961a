/**
 * The npm package's build (`npm run build:package`, also run by `npm pack`): the public
 * entries into `lib/`, self-contained ES modules (dependencies bundled), whose assets —
 * the runtime worker and its chunks, wasm, pyodide — are referenced with
 * `new URL(…, import.meta.url)` so that a consuming app's bundler copies them.
 *
 * A build of its own (not the app's vite.config.ts): the app is an HTML build with a
 * precache; the package is JS entries whose export signatures must be kept.
 *
 *   lib/index.js           page entry (`startLocalRuntime`, `localFetch`)
 *   lib/sw.js              the ready service worker (classic script, built separately)
 *   lib/sw-module.js       `handleLocalResponsesFetch` for an app's own service worker
 *   lib/python.js          `pyodideAssets` (opt-in code interpreter) + lib/pyodide/
 *   lib/cpu.js             `cpuEngine` (opt-in CPU engine) + its wasm in lib/assets/
 *   lib/runtime-worker.js  the runtime worker (stable name, for `assetBase`)
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';
import { PYODIDE_FILES } from '../protocol/runtime-options';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outDir = fileURLToPath(new URL('../../lib', import.meta.url));
const entry = (name: string) => fileURLToPath(new URL(name, import.meta.url));

/** pyodide's runtime files under their own names, next to python.js (see python.ts). */
function pyodideFiles(): Plugin {
  const dir = fileURLToPath(new URL('../../node_modules/pyodide/', import.meta.url));
  return {
    name: 'local-responses:package-pyodide',
    async generateBundle() {
      for (const name of PYODIDE_FILES) this.emitFile({ type: 'asset', fileName: `pyodide/${name}`, source: await readFile(dir + name) });
    },
  };
}

/**
 * Writes every asset reference as the one form consuming bundlers recognise,
 * `new URL("./file", import.meta.url)` with a plain string. Vite's relative-base output says
 * `new URL(new URL(…).href, ""+import.meta.url)` for workers and `""+import.meta.url` for
 * URLs it leaves alone, which neither Vite nor webpack 5 would follow (so they would not
 * copy the file). After minification, which turns strings into template literals.
 */
export function normalizeAssetUrls(code: string): string {
  const literal = (path: string) => JSON.stringify(path.startsWith('.') ? path : `./${path}`);
  return code
    .replace(/new URL\(new URL\(`([^`$]+)`,import\.meta\.url\)\.href,``\+import\.meta\.url\)/g, (_m, path: string) => `new URL(${literal(path)},import.meta.url)`)
    .replace(/new URL\(`([^`$]+)`,(?:``\+)?import\.meta\.url\)/g, (_m, path: string) => `new URL(${literal(path)},import.meta.url)`);
}

function assetUrls(): Plugin {
  return {
    name: 'local-responses:package-asset-urls',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) if (chunk.type === 'chunk') chunk.code = normalizeAssetUrls(chunk.code);
      },
    },
  };
}

/** The ready service worker: one classic script (it must be servable at `/sw.js` as is). */
function readyServiceWorker(): Plugin {
  return {
    name: 'local-responses:package-sw',
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        await build({
          configFile: false,
          root,
          logLevel: 'warn',
          publicDir: false,
          build: {
            outDir,
            emptyOutDir: false,
            minify: true,
            lib: { entry: entry('ready-sw.ts'), formats: ['iife'], name: 'localResponsesSw', fileName: () => 'sw.js' },
          },
        });
      },
    },
  };
}

export default defineConfig({
  root,
  // Relative: every asset URL becomes `new URL('…', import.meta.url)`.
  base: './',
  publicDir: false,
  logLevel: 'warn',
  plugins: [pyodideFiles(), assetUrls(), readyServiceWorker()],
  worker: {
    format: 'es',
    plugins: () => [assetUrls()],
    rolldownOptions: {
      output: {
        entryFileNames: (chunk) => (chunk.name.includes('runtime-worker') ? 'runtime-worker.js' : 'workers/[name]-[hash].js'),
        chunkFileNames: 'chunks/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    // Never inline: a bundler must see (and copy) the wasm files.
    assetsInlineLimit: 0,
    modulePreload: false,
    copyPublicDir: false,
    rolldownOptions: {
      input: { index: entry('index.ts'), 'sw-module': entry('sw.ts'), python: entry('python.ts'), cpu: entry('cpu.ts') },
      preserveEntrySignatures: 'strict',
      output: {
        format: 'es',
        entryFileNames: '[name].js',
        chunkFileNames: 'chunks/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
});
