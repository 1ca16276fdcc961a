import { fileURLToPath } from 'node:url';
import { build, type InlineConfig, type Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));
const swEntry = fileURLToPath(new URL('src/sw/sw.ts', import.meta.url));

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

function serviceWorker(): Plugin {
  let outDir = 'dist';
  return {
    name: 'local-responses:service-worker',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    // After the page build (which empties outDir), add dist/sw.js.
    async closeBundle() {
      if (this.environment?.config.command !== 'build') return;
      await build(swBuild(outDir, true));
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

export default defineConfig({
  plugins: [serviceWorker()],
  worker: { format: 'es' },
  build: { target: 'es2022' },
  // Vite answers localhost origins with CORS headers by default; this origin's pages are
  // for this origin only (another origin must not read them, /v1 least of all).
  server: { cors: false },
  preview: { cors: false },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/**/*.test.ts', 'test/node/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
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
          // `npm run bench:pipeline` only; prints a table instead of asserting speed.
          name: 'bench',
          environment: 'node',
          include: ['test/bench/**/*.ts'],
          fileParallelism: false,
          maxWorkers: 1,
          hookTimeout: 60_000,
          disableConsoleIntercept: true,
        },
      },
    ],
  },
});
