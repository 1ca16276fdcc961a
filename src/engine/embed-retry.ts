/**
 * Embedding inputs whose real token count (the model's tokenizer) is over its window: cut and
 * tried again when the caller allows it (file search), else a 400 as OpenAI answers. Token
 * counts before the call are estimates (~4 characters a token), and a tokenizer can count
 * many more (code, numbers, a byte-level vocabulary).
 */
import { invalidRequest } from '../shared/api-error';
import { Codes } from '../shared/error-codes';

/** Attempts after the first, each keeping 60% of every input. */
const RETRIES = 5;

export async function embedWithin<T>(inputs: readonly string[], options: { truncate?: boolean; model: string; maxTokens: number }, tooLong: (err: unknown) => boolean, embed: (inputs: readonly string[]) => Promise<T>): Promise<T> {
  let texts = inputs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await embed(texts);
    } catch (err) {
      if (!tooLong(err)) throw err;
      if (!options.truncate || attempt >= RETRIES)
        throw invalidRequest(
          `An input has more tokens than ${options.model} reads (${options.maxTokens}, counted by its tokenizer). Shorten the input or split it.`,
          'input',
          Codes.contextLengthExceeded,
        );
      texts = texts.map((t) => t.slice(0, Math.max(1, Math.floor(t.length * 0.6))));
    }
  }
}
