import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { PREBUILT_RECORDS } from './prebuilt-records';

const JSON_PATH = fileURLToPath(new URL('./prebuilt-records.json', import.meta.url));

// After a web-llm upgrade (or a catalog change): UPDATE_WEBLLM_RECORDS=1 npx vitest run --project unit src/engine/webllm/prebuilt-records.test.ts
// rewrites the copy from the ids in the catalog's source (the catalog itself cannot load without the copy).
if (process.env.UPDATE_WEBLLM_RECORDS === '1') {
  const source = readFileSync(fileURLToPath(new URL('./catalog.ts', import.meta.url)), 'utf8');
  const ids = [...source.matchAll(/q4f16: '([^']+)', q4f32: '([^']+)'/g)].flatMap((m) => [m[1]!, m[2]!]);
  writeFileSync(JSON_PATH, JSON.stringify(ids.map((id) => prebuiltAppConfig.model_list.find((r) => r.model_id === id)), null, 2) + '\n');
}

describe('the copy of web-llm’s prebuilt records', () => {
  it('equals the pinned web-llm’s records, one per build of the catalog', async () => {
    const { CATALOG_BUILD_IDS } = await import('./catalog');
    expect(PREBUILT_RECORDS.map((r) => r.model_id)).toEqual(CATALOG_BUILD_IDS);
    expect(PREBUILT_RECORDS).toEqual(CATALOG_BUILD_IDS.map((id) => prebuiltAppConfig.model_list.find((r) => r.model_id === id)));
  });
});
