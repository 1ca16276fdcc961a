import type { ParserOptions } from './chat-format';
import { createTagStreamParser, type TagStreamParser } from './stream-parser';

/**
 * The parser of families without tool calling or reasoning tags: every output is text, even
 * one that looks like a call. Still a stream parser, so a chunk that ends in half a surrogate
 * pair is held back like everywhere else.
 */
export function createPlainTextParser(options: ParserOptions): TagStreamParser {
  return createTagStreamParser({}, { ...options, toolNames: new Set(), startInReasoning: false });
}
