/**
 * The wllama wing: GGUF models on the CPU (llama.cpp in WebAssembly, `@wllama/wllama`,
 * imported only when a model is first used). The runtime imports this face, never the files
 * behind it; wllama itself is reached only through `WllamaLike`, so tests put a fake there.
 */
export { WllamaEngine, type WllamaEngineOptions } from './engine';
export { WllamaModels } from './models';
export { GGUF_CATALOG, GGUF_TEST_CATALOG, type GgufCatalogEntry } from './gguf-catalog';
export { GGUF_EMBEDDING_CATALOG, GGUF_EMBEDDING_TEST_CATALOG, TINY_EMBED_MODEL_ID, WllamaEmbedder, type GgufEmbeddingEntry, type WllamaEmbeddingLike } from './embedder';
