/**
 * Tokens of a text without a tokenizer (chunking files, packing retrieved passages): about 4
 * characters a token for English, one a character for Chinese or Japanese, two for other
 * scripts, and never fewer than ¾ of the words.
 */
export function estimateTokens(text: string): number {
  let latin = 0;
  let cjk = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) latin++;
    else if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff)) cjk++;
    else other++;
  }
  const words = text.length < 1_000_000 ? (text.match(/\S+/g)?.length ?? 0) : Math.round(latin / 5.5);
  return Math.max(Math.ceil(latin / 4), Math.ceil((words * 3) / 4)) + cjk + Math.ceil(other / 2);
}
