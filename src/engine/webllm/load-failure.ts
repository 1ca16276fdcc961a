/**
 * Why a web-llm load failed, said so a person can act on it: the file that could not be
 * fetched (probed after a download error), the storage left (after a quota error), and a
 * smaller model of the catalog to try when this one does not fit the GPU.
 */
import type { AppConfig } from '@mlc-ai/web-llm';
import type { ApiError } from '../../shared/api-error';
import type { StorageInfo } from '../device-status';
import { classifyEngineError, loadError } from '../engine-errors';
import { resolveVariant, type CatalogEntry, type ModelVariant } from './catalog';
import { findUnreachableFile } from './download-probe';

export interface LoadFailureSources {
  appConfig: AppConfig;
  catalog: readonly CatalogEntry[];
  fetch: ((input: string, init?: RequestInit) => Promise<Response>) | undefined;
  estimateStorage(): Promise<StorageInfo | null>;
}

export async function describeLoadFailure(err: unknown, entry: CatalogEntry, variant: ModelVariant, sources: LoadFailureSources): Promise<ApiError> {
  const kind = classifyEngineError(err);
  const record = sources.appConfig.model_list.find((r) => r.model_id === variant.modelId);
  const file =
    record && (kind === 'download' || kind === 'corrupt' || kind === 'unknown')
      ? await findUnreachableFile(record, sources.fetch).catch(() => null)
      : null;
  const storage = kind === 'quota' ? await sources.estimateStorage().catch(() => null) : null;
  const smallerModel = smallerThan(sources.catalog, entry, variant);
  return loadError(err, {
    model: entry.id,
    variantId: variant.modelId,
    vramBytes: variant.vramBytes,
    downloadBytes: variant.downloadBytes,
    ...(record ? { modelLibUrl: record.model_lib } : {}),
    file,
    storage,
    ...(smallerModel ? { smallerModel } : {}),
  });
}

/**
 * A model to suggest when `variant` does not fit: the largest that needs less GPU memory,
 * preferring the same family (same chat format, so the same capabilities).
 */
function smallerThan(catalog: readonly CatalogEntry[], entry: CatalogEntry, variant: ModelVariant): string | undefined {
  const f16 = variant.quantization === 'q4f16_1';
  const smaller = catalog
    .filter((other) => other.id !== entry.id && resolveVariant(other, f16).vramBytes < variant.vramBytes)
    .sort((a, b) => resolveVariant(b, f16).vramBytes - resolveVariant(a, f16).vramBytes);
  return (smaller.find((other) => other.chat_format === entry.chat_format) ?? smaller[0])?.id;
}
