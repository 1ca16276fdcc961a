/**
 * The text of a PDF, read by pdf.js (`pdfjs-dist`): page by page, up to the output limit.
 * The PDF is untrusted: `isEvalSupported: false` (no `new Function` for PostScript functions,
 * the path of CVE-2024-4367), no fonts loaded into the page, no WebAssembly decoders, no XFA
 * forms. pdf.js's core never runs a PDF's JavaScript (only its viewer has scripting, which is
 * not shipped). The caller bounds the time: a pathological page can only be stopped by
 * terminating the worker this runs in.
 */
import type { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfJs {
  getDocument: typeof getDocument;
}

export interface TextLimits {
  /** Characters of text at most; the rest is cut (and `truncated` says so). */
  maxChars: number;
}

export type PdfResult = { ok: true; text: string; truncated: boolean } | { ok: false; message: string };

export async function pdfText(bytes: Uint8Array, pdfjs: PdfJs, limits: TextLimits): Promise<PdfResult> {
  // pdf.js takes (transfers) the buffer it is given: a copy, so the caller's bytes stay whole.
  const task = pdfjs.getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWasm: false,
    enableXfa: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    const doc = await task.promise;
    const pages: string[] = [];
    let length = 0;
    let truncated = false;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      page.cleanup();
      pages.push(text.trim());
      length += text.length + 2;
      if (length > limits.maxChars) {
        truncated = true;
        break;
      }
    }
    const text = pages.filter(Boolean).join('\n\n');
    return { ok: true, text: text.slice(0, limits.maxChars), truncated: truncated || text.length > limits.maxChars };
  } catch (err) {
    const name = (err as { name?: unknown } | null)?.name;
    if (name === 'PasswordException') return { ok: false, message: 'The PDF is password-protected; upload a copy without a password.' };
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, message: `The file is not a PDF pdf.js can read (${message.slice(0, 200)}).` };
  } finally {
    await task.destroy().catch(() => undefined);
  }
}
