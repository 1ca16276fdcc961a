/**
 * `local-responses/python`: opt-in code interpreter. The URLs below point at pyodide's files
 * in the package (`new URL(…, import.meta.url)`), so a bundler (Vite, webpack 5) copies them
 * into the app — only into apps that import this entry, which is what keeps 13 MB of
 * pyodide out of the others.
 *
 * @example
 * import { pyodideAssets } from 'local-responses/python';
 * await startLocalRuntime({ tools: { python: { assets: pyodideAssets } } });
 */
import type { PyodideAssets } from '../protocol/runtime-options';

// Literal URLs, one per file: what bundlers look for. They resolve next to the built
// `python.js` (the package build copies pyodide/ there; vite.package.config.ts).
export const pyodideAssets: PyodideAssets = {
  'pyodide.mjs': new URL('./pyodide/pyodide.mjs', import.meta.url).href,
  'pyodide.asm.mjs': new URL('./pyodide/pyodide.asm.mjs', import.meta.url).href,
  'pyodide.asm.wasm': new URL('./pyodide/pyodide.asm.wasm', import.meta.url).href,
  'python_stdlib.zip': new URL('./pyodide/python_stdlib.zip', import.meta.url).href,
  'pyodide-lock.json': new URL('./pyodide/pyodide-lock.json', import.meta.url).href,
};
