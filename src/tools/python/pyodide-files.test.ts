import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { loadPyodideFiles } from './pyodide-files';
import { PYODIDE_FILES } from '../../protocol/runtime-options';

describe('pyodide files', () => {
  test('vite.config.ts serves exactly these files', () => {
    const config = readFileSync(new URL('../../../vite.config.ts', import.meta.url), 'utf8');
    const names = /const names = \[([^\]]*)\]/.exec(config)?.[1];
    expect(names?.split(',').map((n) => n.trim().replace(/'/g, ''))).toEqual([...PYODIDE_FILES]);
  });

  test('all of them exist in the npm package', () => {
    for (const name of PYODIDE_FILES) expect(() => readFileSync(new URL(`../../../node_modules/pyodide/${name}`, import.meta.url))).not.toThrow();
  });

  test('loaded as Blobs from the index URL', async () => {
    const asked: string[] = [];
    const files = await loadPyodideFiles('https://app.example/pyodide/', async (input) => {
      asked.push(String(input));
      return new Response(String(input));
    });
    expect(asked).toEqual(PYODIDE_FILES.map((n) => `https://app.example/pyodide/${n}`));
    expect(await files['pyodide.asm.wasm'].text()).toBe('https://app.example/pyodide/pyodide.asm.wasm');
  });

  test('a missing file or no network says what to do', async () => {
    await expect(loadPyodideFiles('https://app.example/pyodide/', async () => new Response('', { status: 404 }))).rejects.toThrow(
      'https://app.example/pyodide/pyodide.mjs answered HTTP 404: this build does not serve pyodide (see vite.config.ts)',
    );
    await expect(
      loadPyodideFiles('https://app.example/pyodide/', async () => {
        throw new TypeError('Failed to fetch');
      }),
    ).rejects.toThrow(/could not be loaded \(TypeError: Failed to fetch\): the app is offline and Python has not been cached yet/);
  });
});
