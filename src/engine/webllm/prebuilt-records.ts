/**
 * web-llm's prebuilt records (`prebuiltAppConfig.model_list` of the pinned
 * `@mlc-ai/web-llm`) of the builds the catalog lists, copied as JSON. Reading them from
 * web-llm would put its whole bundle (6.8 MB of script, one file) in the runtime worker's
 * start, before `/v1/models` can answer; with the copy, web-llm is imported only when a
 * web-llm model is loaded, cached or deleted (engine.ts, cache.ts).
 *
 * `prebuilt-records.test.ts` keeps the copy equal to web-llm's own records, and
 * rewrites it with `UPDATE_WEBLLM_RECORDS=1` after a web-llm upgrade.
 */
import type { ModelRecord } from '@mlc-ai/web-llm';
import records from './prebuilt-records.json';

export const PREBUILT_RECORDS: readonly ModelRecord[] = records as unknown as ModelRecord[];
