/**
 * Deleting one web-llm build from the cache without downloading anything.
 *
 * web-llm 0.2.86's `deleteModelAllInfoInCache` starts with tvmjs `deleteTensorCache`, which
 * reads the build's `tensor-cache.json` through `fetchWithCache`: from the cache when it is
 * there, otherwise **from the network**, storing it. For a build that was never downloaded
 * (a catalog model has two, and a device downloads one) that fetch either fails (offline:
 * "Failed to fetch"; a mirror without that build: HTTP 404), ending the deletion before the
 * library, tokenizer and config, or succeeds and leaves a stray manifest in the cache. And
 * it deletes the shards a manifest names but never the manifest itself.
 *
 * So a build whose manifest is not cached holds no weights (the manifest is stored before the
 * shards), and only what a load stored before the weights may be there: the chat config, the
 * library and the tokenizer. Those are deleted with web-llm's own calls for the first two
 * (they never fetch) and directly for the tokenizer. A build with its manifest goes through
 * `deleteModelAllInfoInCache`, which then reads the manifest from the cache; the manifest is
 * deleted after it.
 */
import type { AppConfig } from '@mlc-ai/web-llm';

/** The web-llm calls this uses (`@mlc-ai/web-llm`'s exports of the same names). */
export interface WebLlmDeleteApi {
  deleteModelAllInfoInCache(modelId: string, appConfig?: AppConfig): Promise<void>;
  deleteModelWasmInCache(modelId: string, appConfig?: AppConfig): Promise<void>;
  deleteChatConfigInCache(modelId: string, appConfig?: AppConfig): Promise<void>;
}

/** The tokenizer files web-llm's `deleteModelInCache` deletes. */
const TOKENIZER_FILES = ['tokenizer.model', 'tokenizer.json'];
const MANIFEST = 'tensor-cache.json';

export interface DeleteBuildOptions {
  /** Whether web-llm keeps the build's `tensor-cache.json` (undefined: cannot tell; web-llm deletes). */
  manifestCached: boolean | undefined;
  /** Deletes files of the build's model scope by name (under its model URL), reading nothing first. */
  deleteFiles(names: readonly string[]): Promise<void>;
}

/** Deletes every cached file of one build; never fetches for a build without weights. */
export async function deleteWebLlmBuild(modelId: string, appConfig: AppConfig, webllm: WebLlmDeleteApi, options: DeleteBuildOptions): Promise<void> {
  if (options.manifestCached === false) {
    await webllm.deleteModelWasmInCache(modelId, appConfig);
    await webllm.deleteChatConfigInCache(modelId, appConfig);
    await options.deleteFiles(TOKENIZER_FILES);
    return;
  }
  await webllm.deleteModelAllInfoInCache(modelId, appConfig);
  await options.deleteFiles([MANIFEST]);
}
