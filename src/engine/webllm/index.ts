/**
 * The web-llm wing: models on the GPU through WebGPU (`@mlc-ai/web-llm`, imported only when a
 * model is first used). The runtime's composition root imports this face, never the files
 * behind it; web-llm's MLC engine is reached only through `MLCEngineLike`, so tests put a fake there.
 */
export { WebLlmEngine, type WebLlmEngineOptions } from './engine';
export type { CreateEngine, MLCEngineLike } from './mlc-engine-like';
export { WebLlmModels } from './models';
export { MODEL_CATALOG, findCatalogEntry, type CatalogEntry } from './catalog';
export { WEBLLM_EMBEDDING_CATALOG, WebLlmEmbedder, type MLCEmbeddingEngineLike, type WebLlmEmbedderEntry } from './embedder';
