/**
 * llama.cpp (and so wllama) tokenizes a completion prompt with special-token parsing on and
 * adds the model's BOS token itself when the GGUF says so (`tokenizer.ggml.add_bos_token`,
 * `add_bos_token` in `getLoadedContextInfo()`); it does not check whether the text already
 * starts with one. Chat formats whose template writes the BOS token as text (Llama 3's
 * `<|begin_of_text|>`, Gemma's `<bos>`, the R1 distills') would then give the model two.
 * Measured with stories260K in wllama 3.13: `Once upon a time` is 5 prompt tokens,
 * `<s>Once upon a time` is 6.
 *
 * wllama 3 exposes neither the BOS token's text nor a way to turn `add_special` off per
 * request (a mixed token/text prompt crashes its glue), so the rendered prompt loses its
 * leading BOS text instead, when the model adds one: the model still sees exactly one BOS.
 */

/** BOS tokens of the model families our chat formats render, as text. */
export const BOS_TEXTS: readonly string[] = ['<|begin_of_text|>', '<｜begin▁of▁sentence｜>', '<bos>', '<s>'];

/** `prompt` without a leading BOS text when the engine adds BOS itself; otherwise unchanged. */
export function withoutBosText(prompt: string, engineAddsBos: boolean): string {
  if (!engineAddsBos) return prompt;
  const bos = BOS_TEXTS.find((text) => prompt.startsWith(text));
  return bos ? prompt.slice(bos.length) : prompt;
}
