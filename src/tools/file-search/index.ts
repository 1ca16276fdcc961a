/**
 * File search (`file_search`) and what the Files API needs to read files: text extraction
 * in a worker per file, the keyword index. The search itself is the server's file store's
 * (`ports/vector-search.ts`), handed to the tool at each response.
 */
export { fileSearchTool } from './file-search-tool';
export { createWorkerExtractor } from './worker-extractor';
export { lazyMinisearchIndexes } from './lazy-indexes';
