/**
 * The extraction worker: one per file, started by `worker-extractor.ts` and terminated once it
 * answers (or when its time is up). The file is parsed here, never in the runtime worker, so
 * a hostile file can at worst hang or crash this worker. pdf.js gets its own nested worker
 * (its `workerPort`), which goes with this one.
 */
import { extractText, type Readers } from './text-extraction';
import type { ExtractJob } from './worker-extractor';
import type { Extraction } from '../../ports/text-extractor';

declare const self: DedicatedWorkerGlobalScope;

const readers: Readers = {
  async pdf() {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const { default: workerUrl } = await import('pdfjs-dist/legacy/build/pdf.worker.min.mjs?url');
    // A worker of its own: pdf.js's worker code evaluated in this scope would answer this scope's own messages.
    pdfjs.GlobalWorkerOptions.workerPort = new Worker(workerUrl, { type: 'module', name: 'pdf.js' });
    return pdfjs;
  },
  async docx() {
    const mammoth = await import('mammoth');
    return mammoth.default ?? mammoth;
  },
};

self.onmessage = async (event: MessageEvent<ExtractJob>) => {
  const { file, filename, contentType, maxChars } = event.data;
  let result: Extraction;
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    result = await extractText({ bytes, filename, contentType, maxChars }, readers);
  } catch (err) {
    result = { ok: false, code: 'server_error', message: `Reading the file failed: ${err instanceof Error ? err.message : String(err)}` };
  }
  self.postMessage(result);
};
