/**
 * `npm start` (vite preview) serves the big files compressed. Vite's preview server gzips
 * text, JavaScript and JSON on the fly, but not WebAssembly: pyodide's and wllama's `.wasm`
 * (~20 MB together) went out uncompressed, twice what the network needs to carry.
 *
 * At build time every compressible file of the output gets a `.br` (brotli) and a `.gz`
 * sibling, kept only when it saves at least 10%; the preview server answers a GET for the
 * file with the best one the request accepts, with `Content-Encoding`. Precompressed once,
 * so no request pays for compressing (brotli at quality 5: ~4 s for the biggest file on a
 * busy 2-core machine; quality 9 saves 5% more for three times the build time).
 *
 * The service worker fetches the same URLs and stores the decoded answer, so nothing else
 * changes; the precache lists ignore the `.br`/`.gz` files (vite.config.ts).
 */
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** What is worth compressing, with the Content-Type it is served as. */
const CONTENT_TYPES: Record<string, string> = {
  '.wasm': 'application/wasm',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** Encodings in the order they are preferred, with the sibling file's suffix. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

const MIN_BYTES = 1024;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Writes `.br` and `.gz` next to each compressible file of `dir`; returns the bytes before and after (best encoding). */
export async function precompress(dir: string): Promise<{ files: number; bytes: number; compressedBytes: number }> {
  const files = (await filesUnder(dir)).filter((f) => path.extname(f) in CONTENT_TYPES);
  let bytes = 0;
  let compressedBytes = 0;
  let count = 0;
  await Promise.all(
    files.map(async (file) => {
      const body = await readFile(file);
      if (body.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
        gzip(body, { level: 6 }),
      ]);
      const kept = [
        [br, '.br'],
        [gz, '.gz'],
      ].filter(([out]) => (out as Buffer).length <= body.length * 0.9) as [Buffer, string][];
      for (const [out, suffix] of kept) await writeFile(file + suffix, out);
      bytes += body.length;
      compressedBytes += Math.min(body.length, ...kept.map(([out]) => out.length));
      count++;
    }),
  );
  return { files: count, bytes, compressedBytes };
}

/** The encoding to answer with: the first of ours the request accepts (q=0 refuses). */
export function acceptedEncoding(header: string | undefined, available: readonly string[]): string | null {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) : 1);
  }
  for (const { name } of ENCODINGS) {
    if (!available.includes(name)) continue;
    const q = accepted.get(name) ?? accepted.get('*') ?? 0;
    if (q > 0) return name;
  }
  return null;
}

/**
 * Connect middleware: answers a GET for a file of `dir` that has a precompressed sibling.
 * Anything else (HEAD, ranges, other files, a client that accepts no encoding we have)
 * goes on to Vite's own static server. `headers` are the ones every answer carries.
 */
export function serveCompressed(dir: string, headers: () => Record<string, string | string[] | number> | undefined) {
  const root = path.resolve(dir);
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    if (req.method !== 'GET' || req.headers.range) return next();
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      return next();
    }
    const file = path.join(root, pathname);
    const type = CONTENT_TYPES[path.extname(file)];
    if (!type || !file.startsWith(root + path.sep)) return next();
    void (async () => {
      const available: { name: string; size: number }[] = [];
      for (const { name, suffix } of ENCODINGS) {
        const info = await stat(file + suffix).catch(() => null);
        if (info?.isFile()) available.push({ name, size: info.size });
      }
      const encoding = acceptedEncoding(req.headers['accept-encoding'], available.map((a) => a.name));
      const chosen = available.find((a) => a.name === encoding);
      if (!chosen) return next();
      for (const [name, value] of Object.entries(headers() ?? {})) res.setHeader(name, value);
      res.setHeader('Content-Type', type);
      res.setHeader('Content-Encoding', chosen.name);
      res.setHeader('Content-Length', chosen.size);
      res.setHeader('Vary', 'Accept-Encoding');
      // A file under assets/ is named by its hash: the service worker's precache fetch of a
      // file the page just loaded is then answered by the HTTP cache, not downloaded twice.
      if (pathname.startsWith('/assets/')) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      res.statusCode = 200;
      createReadStream(file + ENCODINGS.find((e) => e.name === chosen.name)!.suffix)
        .on('error', () => res.destroy())
        .pipe(res);
    })().catch(next);
  };
}

/** The plugin: precompress after the build (after the service worker's precache lists), serve in `vite preview`. */
export function compressedFiles(): Plugin {
  let outDir = 'dist';
  return {
    name: 'local-responses:compressed-files',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (this.environment?.config.command !== 'build') return;
        const { files, bytes, compressedBytes } = await precompress(outDir);
        console.log(`compressed: ${files} files, ${(bytes / 1e6).toFixed(1)} MB → ${(compressedBytes / 1e6).toFixed(1)} MB`);
      },
    },
    configurePreviewServer(server) {
      server.middlewares.use(serveCompressed(outDir, () => server.config.preview.headers as Record<string, string> | undefined));
    },
  };
}
