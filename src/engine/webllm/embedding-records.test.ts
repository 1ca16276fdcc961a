import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { expect, test } from 'vitest';
import { WEBLLM_EMBEDDING_CATALOG } from './embedder';
import { EMBEDDING_RECORDS } from './embedding-records';

test('the copy of web-llm’s embedding records equals the pinned web-llm’s, one per catalog entry', () => {
  expect(EMBEDDING_RECORDS.map((r) => r.model_id)).toEqual(WEBLLM_EMBEDDING_CATALOG.map((e) => e.id));
  expect(EMBEDDING_RECORDS).toEqual(EMBEDDING_RECORDS.map((r) => prebuiltAppConfig.model_list.find((p) => p.model_id === r.model_id)));
});
