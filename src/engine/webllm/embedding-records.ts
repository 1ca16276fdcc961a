/**
 * web-llm's prebuilt records of its embedding models (`prebuiltAppConfig.model_list` of the
 * pinned `@mlc-ai/web-llm`, `model_type: embedding`), copied as JSON for the same reason as
 * prebuilt-records.ts: web-llm's bundle loads only when a model is used. The test next to it
 * keeps the copy equal to web-llm's.
 */
import type { ModelRecord } from '@mlc-ai/web-llm';
import records from './embedding-records.json';

export const EMBEDDING_RECORDS: readonly ModelRecord[] = records as unknown as ModelRecord[];
