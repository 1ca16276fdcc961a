/**
 * Finds which model file is missing or unreadable after a load failed. web-llm's errors
 * often do not name the file: the Cache API's `cache.add()` rejects with a bare
 * `TypeError` on a 404, and a relative model library is fetched without a status check,
 * so a 404 page reaches the wasm compiler. Probing the files in the order web-llm reads
 * them names the first culprit. Runs only on the failure path; small files are read with
 * GET (their content is checked), weight shards with HEAD.
 */
import type { ModelRecord } from '@mlc-ai/web-llm';
import type { FileProblem } from '../engine-errors';

type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** The directory web-llm reads a model's files from (its `cleanModelUrl`, which is not exported). */
export function modelFilesBase(modelUrl: string): string {
  let url = modelUrl.endsWith('/') ? modelUrl : `${modelUrl}/`;
  if (!/.+\/resolve\/.+\//.test(url)) url += 'resolve/main/';
  return url;
}

async function check(fetchFn: FetchLike, url: string, method: 'GET' | 'HEAD', signal?: AbortSignal): Promise<{ response?: Response; problem?: FileProblem }> {
  try {
    let response = await fetchFn(url, { method, cache: 'no-store', signal });
    if (method === 'HEAD' && (response.status === 405 || response.status === 501)) {
      response = await fetchFn(url, { method: 'GET', cache: 'no-store', signal });
      await response.body?.cancel();
    }
    if (!response.ok) return { problem: { url, status: response.status, problem: `HTTP ${response.status}` } };
    return { response };
  } catch (err) {
    if (signal?.aborted) throw err;
    const detail = err instanceof Error ? err.message : String(err);
    return { problem: { url, problem: `network error: ${detail}; offline, or the server does not allow this origin (CORS)` } };
  }
}

async function readJson(fetchFn: FetchLike, url: string, signal?: AbortSignal): Promise<{ json?: unknown; problem?: FileProblem }> {
  const { response, problem } = await check(fetchFn, url, 'GET', signal);
  if (problem || !response) return { problem };
  try {
    return { json: JSON.parse(await response.text()) };
  } catch {
    return { problem: { url, problem: 'not valid JSON' } };
  }
}

/**
 * Returns the first file of `record` that cannot be fetched or read, or null when all
 * answer (then the failure was elsewhere, e.g. quota or a corrupt shard).
 */
export async function findUnreachableFile(
  record: Pick<ModelRecord, 'model' | 'model_lib'>,
  fetchFn: FetchLike = (input, init) => fetch(input, init),
  signal?: AbortSignal,
): Promise<FileProblem | null> {
  const base = modelFilesBase(record.model);
  const config = await readJson(fetchFn, new URL('mlc-chat-config.json', base).href, signal);
  if (config.problem) return config.problem;

  const lib = await check(fetchFn, record.model_lib, 'HEAD', signal);
  if (lib.problem) return lib.problem;

  const tokenizerFiles = (config.json as { tokenizer_files?: unknown }).tokenizer_files;
  const tokenizer = Array.isArray(tokenizerFiles) ? tokenizerFiles.filter((f): f is string => typeof f === 'string') : [];
  // web-llm reads tokenizer.json when listed, else tokenizer.model.
  const used = tokenizer.includes('tokenizer.json') ? 'tokenizer.json' : tokenizer.includes('tokenizer.model') ? 'tokenizer.model' : null;
  if (used) {
    const tok = await check(fetchFn, new URL(used, base).href, 'HEAD', signal);
    if (tok.problem) return tok.problem;
  }

  const manifest = await readJson(fetchFn, new URL('tensor-cache.json', base).href, signal);
  if (manifest.problem) return manifest.problem;
  const records = (manifest.json as { records?: unknown }).records;
  const shards = Array.isArray(records)
    ? records.map((r) => (r as { dataPath?: unknown }).dataPath).filter((p): p is string => typeof p === 'string')
    : [];
  // Four at a time, like web-llm's own download loop.
  for (let i = 0; i < shards.length; i += 4) {
    const results = await Promise.all(shards.slice(i, i + 4).map((path) => check(fetchFn, new URL(path, base).href, 'HEAD', signal)));
    const failed = results.find((r) => r.problem);
    if (failed?.problem) return failed.problem;
  }
  return null;
}
