/**
 * The example app (examples/pwa-openai) as a user would get it: the package packed with
 * `npm pack`, the example installed from that tarball (offline from the npm cache) and
 * built with the scripted test model (`VITE_TEST_MODELS=1`, an explicit option). Cached
 * under node_modules/.cache/, keyed by a hash of everything that goes in, so only a change
 * to the package or the example repacks and reinstalls (~1–2 minutes; otherwise instant).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { preview } from 'vite';
import type { Served } from './browser';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const exampleDir = path.join(root, 'examples/pwa-openai');
const cacheRoot = path.join(root, 'node_modules/.cache/local-responses-example');

async function hashTree(hash: ReturnType<typeof createHash>, dir: string): Promise<void> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await hashTree(hash, full);
    else hash.update(path.relative(root, full)).update(await readFile(full));
  }
}

async function inputsHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json']) hash.update(await readFile(path.join(root, file)));
  await hashTree(hash, path.join(root, 'src'));
  await hashTree(hash, exampleDir);
  return hash.digest('hex').slice(0, 16);
}

const exists = (file: string) => stat(file).then(() => true, () => false);

/** Packs, installs and builds the example (or reuses the cached build); returns its folder. */
export async function preparePackageExample(): Promise<string> {
  const dir = path.join(cacheRoot, await inputsHash());
  const app = path.join(dir, 'app');
  if (await exists(path.join(app, 'dist/sw.js'))) return app;
  await rm(cacheRoot, { recursive: true, force: true }); // older builds
  await mkdir(dir, { recursive: true });
  // `prepack` builds lib/ (npm run build:package).
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  await cp(exampleDir, app, { recursive: true, filter: (src) => !/[\\/](node_modules|dist)$/.test(src) });
  const manifestPath = path.join(app, 'package.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { dependencies: Record<string, string> };
  manifest.dependencies['local-responses'] = `file:../${filename}`;
  await writeFile(manifestPath, JSON.stringify(manifest, null, 2));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app });
  await run(path.join(app, 'node_modules/.bin/vite'), ['build'], { cwd: app, env: { ...process.env, VITE_TEST_MODELS: '1' } });
  return app;
}

/** Serves the built example with its own `vite preview`, on a port of its own. */
export async function serveExample(app: string): Promise<Served> {
  const server = await preview({ root: app, logLevel: 'warn', preview: { host: '127.0.0.1', port: 0, strictPort: true } });
  const { port } = server.httpServer.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.close() };
}
