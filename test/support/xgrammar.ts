/**
 * xgrammar — the grammar engine web-llm runs — in Node, to check that a grammar we print
 * compiles and accepts exactly what it should (`@mlc-ai/web-xgrammar`, the same C++ compiled
 * to wasm, test-only). Its package is a UMD script marked as an ES module, which Node cannot
 * import; a copy named `.cjs` is required as the CommonJS it is.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

interface XGrammar {
  Grammar: { fromEBNF(ebnf: string, root?: string): Promise<unknown> };
  Testings: { isGrammarAcceptString(grammar: unknown, input: string): Promise<boolean> };
}

let loaded: XGrammar | undefined;

function xgrammar(): XGrammar {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const file = require.resolve('@mlc-ai/web-xgrammar');
  // Beside the original, so its own relative lookups (none today) would still resolve.
  const copy = path.join(path.dirname(file), 'index.umd.cjs');
  if (!existsSync(copy)) {
    mkdirSync(path.dirname(copy), { recursive: true });
    copyFileSync(file, copy);
  }
  loaded = require(copy) as XGrammar;
  return loaded;
}

/** Compiles `ebnf` (throws when xgrammar refuses it) and returns a checker of whole inputs. */
export async function compileEbnf(ebnf: string): Promise<(input: string) => Promise<boolean>> {
  const { Grammar, Testings } = xgrammar();
  const grammar = await Grammar.fromEBNF(ebnf);
  return (input) => Testings.isGrammarAcceptString(grammar, input);
}
