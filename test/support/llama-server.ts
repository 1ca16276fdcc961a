/**
 * A real llama.cpp `llama-server` as an upstream provider, for the Chromium tests and the
 * benchmark. The binary is built by `test/upstream/build-llama-server.sh` (from the llama.cpp
 * source node-llama-cpp ships) into a cache outside the repository; `.ci/run` builds it before
 * `npm test`. Without it the callers skip, saying how to build it.
 *
 * The model: `../shared/models/stories260K.gguf` (a real 260K-parameter TinyStories model,
 * `--chat-template chatml`) when present, or `LLAMA_SERVER_MODEL`; else the tiny llama the
 * tests generate (test/fixtures/make-tiny-gguf.ts), also with ChatML. Started on a random
 * free port of 127.0.0.1, reachable from the app's origin by CORS (llama.cpp reflects any
 * origin by default; with a key, `--cors-headers "Authorization, Content-Type"` as docs/providers.md
 * tells users).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTinyGguf } from '../fixtures/make-tiny-gguf';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cache = process.env.LLAMA_SERVER_CACHE ?? path.join(os.homedir(), '.cache/local-responses');
const DEFAULT_BINARY = path.join(cache, 'llama-server-node-llama-cpp-3.21.1/build/bin/llama-server');
const STORIES = path.resolve(root, '../shared/models/stories260K.gguf');

/** The llama-server binary, or null (with the reason in `LLAMA_SERVER_MISSING`). */
export const LLAMA_SERVER = [process.env.LLAMA_SERVER, DEFAULT_BINARY].find((p): p is string => !!p && fs.existsSync(p)) ?? null;

export const LLAMA_SERVER_MISSING =
  `llama-server is not built (looked for $LLAMA_SERVER, then ${DEFAULT_BINARY}): ` +
  'run `bash test/upstream/build-llama-server.sh` (about 20 minutes on 2 cores, cached afterwards; .ci/run does it) to run these tests.';

export interface UpstreamModelFile {
  file: string;
  /** `stories260K` (a real model) or `tiny-llama` (generated: answers TINY_GGUF_REPLY, counts after a digit). */
  name: 'stories260K' | 'tiny-llama';
}

/** The model to serve: a real one when there, else the generated tiny llama (written to a temp dir). */
export function upstreamModelFile(): UpstreamModelFile {
  const given = process.env.LLAMA_SERVER_MODEL ?? STORIES;
  if (fs.existsSync(given)) return { file: given, name: 'stories260K' };
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'llama-server-model-')), 'tiny-llama.gguf');
  fs.writeFileSync(file, makeTinyGguf());
  return { file, name: 'tiny-llama' };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface LlamaServer {
  /** `http://127.0.0.1:<port>/v1`: what a provider is configured with. */
  baseUrl: string;
  /** The upstream model id (its `--alias`). */
  model: string;
  modelName: UpstreamModelFile['name'];
  /** The server's log so far (for a failing test's message). */
  log(): string;
  close(): Promise<void>;
}

export interface LlamaServerOptions {
  apiKey?: string;
  /** Parallel slots (`-np`); default 4, a provider's default concurrency. */
  slots?: number;
  model?: UpstreamModelFile;
  /** A Jinja chat template file instead of ChatML (the benchmark's raw template lets the tiny llama count on). */
  chatTemplateFile?: string;
  /**
   * Serve `/v1/embeddings` (`--embeddings --pooling mean`, vectors L2-normalised by default).
   * llama.cpp calls that flag "restrict to only support embedding use case" (it still answers
   * chat in this version, with a smaller batch), so tests give embeddings a server of their own.
   */
  embeddings?: boolean;
}

/** Starts llama-server and resolves once `/health` says ok (the model is loaded). */
export async function startLlamaServer(options: LlamaServerOptions = {}): Promise<LlamaServer> {
  if (!LLAMA_SERVER) throw new Error(LLAMA_SERVER_MISSING);
  const model = options.model ?? upstreamModelFile();
  const port = await freePort();
  const template = options.chatTemplateFile ? ['--chat-template-file', options.chatTemplateFile] : ['--chat-template', 'chatml'];
  const args = ['-m', model.file, '--alias', model.name, ...template, '--host', '127.0.0.1', '--port', String(port), '-t', '1', '-np', String(options.slots ?? 4), '-c', String(2048 * (options.slots ?? 4)), '--no-webui'];
  if (options.embeddings) args.push('--embeddings', '--pooling', 'mean');
  if (options.apiKey) args.push('--api-key', options.apiKey, '--cors-headers', 'Authorization, Content-Type');
  let log = '';
  const child: ChildProcess = spawn(LLAMA_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-20_000)));
  child.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`llama-server exited (${child.exitCode}):\n${log}`);
    const ok = await fetch(`${origin}/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`llama-server did not become healthy in 30 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl: `${origin}/v1`,
    model: model.name,
    modelName: model.name,
    log: () => log,
    async close() {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
