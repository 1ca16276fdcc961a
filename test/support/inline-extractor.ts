/**
 * The extraction code of the runtime (`tools/file-search/text-extraction.ts`, real pdf.js and
 * mammoth) run in the calling thread: Node has no web Worker, so server tests read files
 * inline. The browser runtime uses `worker-extractor.ts` (a worker per file, with a time
 * limit); Chromium tests cover that.
 */
import type { TextExtractor } from '../../src/ports/text-extractor';
import { extractText, type Readers } from '../../src/tools/file-search/text-extraction';

const readers: Readers = {
  pdf: () => import('pdfjs-dist/legacy/build/pdf.mjs'),
  async docx() {
    const mammoth = await import('mammoth');
    return mammoth.default ?? mammoth;
  },
};

export function inlineExtractor(options: { maxChars?: number } = {}): TextExtractor {
  return {
    async extract(file, { filename, contentType, signal }) {
      signal.throwIfAborted();
      const bytes = new Uint8Array(await file.arrayBuffer());
      return extractText({ bytes, filename, contentType, ...(options.maxChars ? { maxChars: options.maxChars } : {}) }, readers);
    },
  };
}
