import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Cross-origin isolation (threads for the CPU engine, Python's interrupt). `require-corp`
 * isolates in every browser that can be isolated; this app loads nothing of another origin
 * but CORS fetches (model downloads), which it allows.
 */
const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

/** Every built file but the worker itself, with a content hash: Workbox's precache list. */
async function precacheManifest(outDir: string): Promise<{ url: string; revision: string }[]> {
  const files = (await readdir(outDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  const manifest = [];
  for (const file of files) {
    const full = path.join(file.parentPath, file.name);
    const url = path.relative(outDir, full).split(path.sep).join('/');
    if (url === 'sw.js') continue;
    manifest.push({ url, revision: createHash('sha256').update(await readFile(full)).digest('hex').slice(0, 16) });
  }
  return manifest;
}

/** After the pages: `dist/sw.js`, one classic script at the root (scope `/`), with the list. */
function serviceWorker(): Plugin {
  return {
    name: 'example:service-worker',
    apply: 'build',
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const outDir = path.join(root, 'dist');
        await build({
          configFile: false,
          root,
          logLevel: 'warn',
          publicDir: false,
          define: { 'self.__WB_MANIFEST': JSON.stringify(await precacheManifest(outDir)), 'process.env.NODE_ENV': '"production"' },
          build: { outDir, emptyOutDir: false, lib: { entry: 'src/sw.ts', formats: ['iife'], name: 'exampleSw', fileName: () => 'sw.js' } },
        });
      },
    },
  };
}

export default defineConfig({
  plugins: [serviceWorker()],
  // The runtime worker splits into chunks (engines and tools load on demand): ES workers.
  worker: { format: 'es' },
  build: { target: 'es2022', rolldownOptions: { input: { index: 'index.html', about: 'about.html' } } },
  // Dev: the package's `new URL(…, import.meta.url)` assets must be served from the package.
  optimizeDeps: { exclude: ['local-responses'] },
  server: { port: 5180, strictPort: true, headers: isolation },
  preview: { port: 5180, strictPort: true, headers: isolation },
});
