/**
 * Client libraries in the page, as an app on this origin would ship them: a test-only entry
 * under test/e2e/clients/ is bundled by Vite (library mode, one classic IIFE script) and
 * injected with `page.addScriptTag({ content })`. The product's build never sees these
 * libraries.
 *
 * Bundling takes seconds; the result is cached under node_modules/.cache, keyed by the
 * lockfile (library versions), the entry folder's sources and this file, so a second run
 * (or a second test file using the same entry) reads the cache.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { openApp, startE2E } from './browser';

type E2E = Awaited<ReturnType<typeof startE2E>>;

const root = fileURLToPath(new URL('../..', import.meta.url));
const clientsDir = path.join(root, 'test/e2e/clients');
const cacheDir = path.join(root, 'node_modules/.cache/e2e-client-bundles');

/** Bundles `test/e2e/clients/<name>.ts` into a script that sets `window[globalName]`. */
export async function clientBundle(name: string, globalName: string): Promise<string> {
  const entry = path.join(clientsDir, `${name}.ts`);
  const key = await cacheKey(name, globalName);
  const cached = path.join(cacheDir, `${name}-${key}.js`);
  try {
    return await readFile(cached, 'utf8');
  } catch {
    // not cached yet: built below
  }
  const result = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    // Library mode keeps `process.env.NODE_ENV` as written; the libraries read it.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      write: false,
      minify: false,
      sourcemap: false,
      target: 'es2022',
      lib: { entry, formats: ['iife'], name: globalName, fileName: () => `${name}.js` },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as { output: { type: string; code?: string }[] }[];
  const code = outputs.flatMap((o) => o.output).find((chunk) => chunk.type === 'chunk')?.code;
  if (!code) throw new Error(`bundling ${entry} produced no script`);
  await mkdir(cacheDir, { recursive: true });
  // Write then rename: a concurrent reader never sees half a file.
  const partial = `${cached}.${process.pid}.tmp`;
  await writeFile(partial, code);
  await rename(partial, cached);
  return code;
}

async function cacheKey(name: string, globalName: string): Promise<string> {
  const hash = createHash('sha256').update(`${name}\0${globalName}\0`);
  hash.update(await readFile(path.join(root, 'package-lock.json')));
  hash.update(await readFile(fileURLToPath(import.meta.url)));
  for (const file of (await readdir(clientsDir)).sort()) {
    hash.update(file).update(await readFile(path.join(clientsDir, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The app in Chromium with `test/e2e/clients/<name>.ts` bundled into its page as
 * `window[globalName]`. The bundle is injected as an inline script, which the app's CSP refuses
 * (as it should: a developer's code would be a same-origin file), so this one context bypasses
 * the CSP; the CSP itself is tested in the cross-origin and app tests.
 */
export async function openClientPage(name: string, globalName: string): Promise<{ e2e: E2E; page: Page }> {
  const [e2e, bundle] = await Promise.all([startE2E(), clientBundle(name, globalName)]);
  const page = await openApp(await e2e.browser.newContext({ bypassCSP: true }), e2e.app.origin);
  await page.addScriptTag({ content: bundle });
  return { e2e, page };
}
