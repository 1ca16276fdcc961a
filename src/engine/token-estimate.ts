/**
 * Token estimate without a tokenizer (neither web-llm nor wllama 3 exposes one): one token
 * per 3 ASCII characters (BPE and SentencePiece vocabularies average ~4 on English text and
 * code, so this overestimates) and one per other code point (CJK runs ~1–1.5 characters a
 * token). Deliberately conservative: it guards the context window before a response
 * starts; the engine's exact check at prefill catches the rest.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const ch of text) {
    if ((ch.codePointAt(0) ?? 0) < 128) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 3) + other;
}
