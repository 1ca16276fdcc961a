/**
 * Cuts a file's text into overlapping chunks of about `max_chunk_size_tokens`, overlapping by
 * about `chunk_overlap_tokens` (OpenAI's `static` strategy; `auto` is 800/400). There is no
 * tokenizer here, so tokens are estimated from the text itself — about 4 characters a token
 * for English, one a character for Chinese or Japanese — and a chunk's length in characters
 * follows from the whole text's density. A chunk ends where the text breaks best within its
 * last half: a blank line, a line end, a sentence end, a space (a word is cut only when there
 * is none); the next one starts `overlap` back, at the start of a word.
 */
import type { ChunkingStatic } from '../../protocol/vector-stores';
import { estimateTokens } from '../../shared/estimate-tokens';

export { estimateTokens };

const BREAKS = ['\n\n', '\n', '. ', '? ', '! ', '; ', ', ', ' '];

/** The chunks of `text`, in order (none for empty or blank text). */
export function chunkText(text: string, { max_chunk_size_tokens: max, chunk_overlap_tokens: overlap }: ChunkingStatic): string[] {
  if (text.trim() === '') return [];
  const density = Math.max(estimateTokens(text.slice(0, 200_000)) / Math.min(text.length, 200_000), 1 / 8);
  const maxChars = Math.max(16, Math.floor(max / density));
  const overlapChars = Math.floor(overlap / density);
  const chunks: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + maxChars);
    if (end < text.length) end = breakBefore(text, start + Math.floor(maxChars / 2), end);
    const chunk = text.slice(start, end).trim();
    if (chunk) chunks.push(chunk);
    if (end >= text.length) break;
    // The next chunk starts `overlap` back, at a word's start, and always after this one's start.
    let next = Math.max(start + 1, end - overlapChars);
    if (next < end) {
      const space = text.slice(next, end).search(/\s/);
      if (space >= 0) next += space + 1;
    }
    start = Math.min(next, end);
  }
  return chunks;
}

/** Where to end a chunk in (from, to]: just after the best break found, else `to`. */
function breakBefore(text: string, from: number, to: number): number {
  const window = text.slice(from, to);
  for (const mark of BREAKS) {
    const at = window.lastIndexOf(mark);
    if (at >= 0) return from + at + mark.length;
  }
  return to;
}
