/**
 * `npm run bench:storage`: what 300 short responses add to the origin's IndexedDB, in real
 * Chromium with the built app (`/?test-models`, model `test-scripted`), created through the
 * `openai` SDK in the page as a client would (issue 35, item 3; target ≤ 8 kB a response).
 *
 * The mix, 50 rounds of six in this order (plain, streamed, background, plain, streamed,
 * bg+stream), one after another as one client would send them:
 *   plain        `responses.create({...})`                                   (100)
 *   streamed     `responses.create({..., stream: true})`, read to the end      (100)
 *   background   `responses.create({..., background: true})`, then `retrieve`
 *                polled every 20 ms until it has finished                     (50)
 *   bg+stream    `responses.create({..., background: true, stream: true})`,
 *                read to the end                                              (50)
 * Each answer
 * is exactly 250 characters of text, different for every response (the scripted model plays
 * `{"script": …}`, 4 characters a token: 63 text deltas), stored (`store` left at its default).
 *
 * Measured before and after, in a persistent profile (a fresh directory under the OS temp):
 *   estimate   `navigator.storage.estimate()`'s `usageDetails.indexedDB`
 *   disk       the bytes of every file under the profile whose path has `IndexedDB` in it,
 *              while the browser runs, and again after the browser has closed (what stays);
 *              then the estimate once more after the profile is started again
 *   (Chromium's LevelDB keeps the last ~3.4 MB written uncompressed in its log and the rest
 *   compressed: a run short of that measures what was written, a longer one less.)
 *   rows       rows per object store of the runtime's database, and their values' size (as
 *              JSON, binary parts by their length): where the bytes go, not what the disk holds
 * One round of six is sent first, before "before", so the database and everything made lazily
 * exist already. BENCH_RESPONSES (default 300) changes the count.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, test } from 'vitest';
import { CHROMIUM_ARGS, serveDist, waitForRuntime, type Served } from '../support/browser';

const COUNT = Number(process.env.BENCH_RESPONSES ?? 300);
/** BENCH_ONLY=plain (or streamed, background, bg+stream): every response of that one kind. */
const ONLY = process.env.BENCH_ONLY ?? null;
const OUTPUT_CHARS = 250;
const DB_NAME = 'local-responses';

let app: Served;
let profile: string;
let context: BrowserContext | null = null;
beforeAll(async () => {
  app = await serveDist();
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-bench-'));
});
afterAll(async () => {
  await context?.close();
  await app?.close();
  if (process.env.BENCH_KEEP_PROFILE === '1') console.log(`profile kept: ${profile}`);
  else fs.rmSync(profile, { recursive: true, force: true });
});

/** Bytes of every file below `dir` whose path (relative to the profile) names IndexedDB. */
function indexedDbDiskBytes(dir: string): number {
  let total = 0;
  const walk = (at: string, inIdb: boolean) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      const idb = inIdb || /indexeddb/i.test(entry.name);
      if (entry.isDirectory()) walk(full, idb);
      else if (idb && entry.isFile()) total += fs.statSync(full).size;
    }
  };
  walk(dir, false);
  return total;
}

/** Prints the IndexedDB files of the profile (BENCH_VERBOSE=1): how the backend holds the bytes. */
function listIndexedDbFiles(dir: string, inIdb = false): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const idb = inIdb || /indexeddb/i.test(entry.name);
    if (entry.isDirectory()) listIndexedDbFiles(full, idb);
    else if (idb) console.log(`${fs.statSync(full).size.toString().padStart(10)}  ${path.relative(profile, full)}`);
  }
}

interface Snapshot {
  estimate: number;
  disk: number;
  stores: Record<string, { rows: number; json: number }>;
}

/** The page's view of the runtime's database: rows and JSON bytes per store, and the estimate. */
async function snapshot(page: Page): Promise<Snapshot> {
  const inPage = await page.evaluate(async (name) => {
    const estimate = (await navigator.storage.estimate()) as StorageEstimate & { usageDetails?: Record<string, number> };
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const stores: Record<string, { rows: number; json: number }> = {};
    for (const store of Array.from(db.objectStoreNames)) {
      const values = await new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      // Binary values (blobs, compressed batches) count by their byte length, the rest as JSON.
      const size = (value: unknown) => {
        let binary = 0;
        const json = JSON.stringify(value, (_key, x: unknown) => {
          if (x instanceof Blob) binary += x.size;
          else if (ArrayBuffer.isView(x) || x instanceof ArrayBuffer) binary += x.byteLength;
          else return x;
          return null;
        });
        return binary + (json?.length ?? 0);
      };
      stores[store] = { rows: values.length, json: values.reduce<number>((sum, v) => sum + size(v), 0) };
    }
    db.close();
    return { estimate: estimate.usageDetails?.indexedDB ?? 0, stores };
  }, DB_NAME);
  return { ...inPage, disk: indexedDbDiskBytes(profile) };
}

/** Creates the responses in the page, as described at the top; returns how each kind ended. */
function createResponses(page: Page, from: number, count: number): Promise<Record<string, number>> {
  return page.evaluate(
    async ({ from, count, chars, only }) => {
      const sdk = window.sdk!;
      const words = ['local', 'answer', 'short', 'storage', 'browser', 'stream', 'token', 'model', 'cache', 'event', 'reply', 'quiet'];
      /** 250 characters, different for every n. */
      const text = (n: number) => {
        let out = `Answer ${n}:`;
        for (let i = 0; out.length < chars; i++) out += ` ${words[(n * 7 + i * 5 + ((n * i) % 11)) % words.length]}`;
        return out.slice(0, chars - 1) + '.';
      };
      const ended: Record<string, number> = {};
      const count1 = (kind: string, status: string | undefined) => (ended[`${kind} ${status}`] = (ended[`${kind} ${status}`] ?? 0) + 1);
      const model = 'test-scripted';
      for (let n = from; n < from + count; n++) {
        const input = JSON.stringify({ script: text(n) });
        const kind = only ?? ['plain', 'streamed', 'background', 'plain', 'streamed', 'bg+stream'][n % 6]!;
        if (kind === 'plain') {
          const r = await sdk.responses.create({ model, input });
          if (r.output_text.length !== chars) throw new Error(`plain ${n}: ${r.output_text.length} characters`);
          count1(kind, r.status);
        } else if (kind === 'streamed' || kind === 'bg+stream') {
          const stream = await sdk.responses.create({ model, input, stream: true, ...(kind === 'bg+stream' ? { background: true } : {}) });
          let status: string | undefined;
          for await (const event of stream) if (event.type === 'response.completed') status = event.response.status;
          count1(kind, status);
        } else {
          let r = await sdk.responses.create({ model, input, background: true });
          while (r.status === 'queued' || r.status === 'in_progress') {
            await new Promise((resolve) => setTimeout(resolve, 20));
            r = await sdk.responses.retrieve(r.id);
          }
          count1(kind, r.status);
        }
      }
      return ended;
    },
    { from, count, chars: OUTPUT_CHARS, only: ONLY },
  );
}

const launch = () => chromium.launchPersistentContext(profile, { executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

test('storage benchmark', { timeout: 30 * 60_000 }, async () => {
  context = await launch();
  const page = await context.newPage();
  await page.goto(`${app.origin}/?test-models`);
  await waitForRuntime(page);
  // One round first, so the database and everything made lazily exist before "before".
  await createResponses(page, 1_000_000, 6);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const before = await snapshot(page);
  const t0 = performance.now();
  const ended = await createResponses(page, 0, COUNT);
  const seconds = (performance.now() - t0) / 1000;
  // Let the runtime's last writes and the database's own housekeeping settle.
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const after = await snapshot(page);
  await context.close();
  context = null;
  const closedDisk = indexedDbDiskBytes(profile);
  if (process.env.BENCH_VERBOSE === '1') listIndexedDbFiles(profile);
  // The same profile started again, the app opened (the runtime opens the database).
  context = await launch();
  const reopened = await context.newPage();
  await reopened.goto(`${app.origin}/?test-models`);
  await waitForRuntime(reopened);
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const restarted = await snapshot(reopened);
  await context.close();
  context = null;
  if (process.env.BENCH_VERBOSE === '1') listIndexedDbFiles(profile);

  console.log(`\nstorage benchmark: ${COUNT} short responses (${OUTPUT_CHARS} characters each) in ${seconds.toFixed(1)} s; ended: ${JSON.stringify(ended)}\n`);
  const stores = Object.keys(after.stores).filter((s) => after.stores[s]!.rows > 0 || (before.stores[s]?.rows ?? 0) > 0);
  console.table(
    Object.fromEntries(
      stores.map((s) => {
        const a = after.stores[s]!;
        const b = before.stores[s] ?? { rows: 0, json: 0 };
        return [s, { rows: a.rows - b.rows, 'rows / response': ((a.rows - b.rows) / COUNT).toFixed(2), 'bytes / response (JSON)': Math.round((a.json - b.json) / COUNT) }];
      }),
    ),
  );
  const growth = {
    'estimate (usageDetails.indexedDB)': after.estimate - before.estimate,
    'disk, browser running': after.disk - before.disk,
    'disk, browser closed': closedDisk - before.disk,
    'estimate, after a restart': restarted.estimate - before.estimate,
  };
  console.table(Object.fromEntries(Object.entries(growth).map(([k, v]) => [k, { total: kb(v), 'per response': kb(v / COUNT) }])));
  const perResponse = Math.max(growth['estimate (usageDetails.indexedDB)'], growth['disk, browser closed']) / COUNT;
  console.log(`target (issue 35): ≤ 8 kB per short response: ${kb(perResponse)} → ${perResponse <= 8000 ? 'met' : 'MISSED'}`);
});
