import { describe, expect, test } from 'vitest';
import { normalizeAssetUrls } from './vite.package.config';

// What consuming bundlers follow: `new URL("./file", import.meta.url)` with a plain string.
describe('normalizeAssetUrls', () => {
  test('a worker reference Vite wrote for a relative base becomes the plain form', () => {
    const built = 'new Worker(new URL(new URL(`runtime-worker.js`,import.meta.url).href,``+import.meta.url),{type:`module`})';
    expect(normalizeAssetUrls(built)).toBe('new Worker(new URL("./runtime-worker.js",import.meta.url),{type:`module`})');
  });

  test('asset URLs, with or without the empty-string prefix, get a plain relative string', () => {
    expect(normalizeAssetUrls('new URL(`./pyodide/pyodide.mjs`,``+import.meta.url)')).toBe('new URL("./pyodide/pyodide.mjs",import.meta.url)');
    expect(normalizeAssetUrls('new URL(`../assets/x.wasm`,import.meta.url)')).toBe('new URL("../assets/x.wasm",import.meta.url)');
  });

  test('computed URLs are left alone', () => {
    const code = 'new URL(`${base}x.wasm`,import.meta.url);new URL(`a.json`,location.href)';
    expect(normalizeAssetUrls(code)).toBe(code);
  });
});
