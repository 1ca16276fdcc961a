/**
 * The import directions ARCHITECTURE.md names, checked on the source: `engine/` knows
 * nothing of `server/` (the ports it implements live on its side), `protocol/` knows
 * nothing of engines or the server, and `ui/` reaches the runtime only over HTTP, with the
 * contracts from `protocol/`. Tests may cross (they build whole servers).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Every non-test source file under `src/<folder>` with the src folders it imports from. */
function importsOf(folder: string): Array<{ file: string; folders: string[] }> {
  const out: Array<{ file: string; folders: string[] }> = [];
  for (const entry of fs.readdirSync(path.join(SRC, folder), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = fs.readFileSync(file, 'utf8');
    const folders = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']*)'/g)].map((m) => path.relative(SRC, path.resolve(path.dirname(file), m[1]!)).split(path.sep)[0]!);
    out.push({ file: path.relative(SRC, file), folders });
  }
  return out;
}

const forbidden: Record<string, string[]> = {
  engine: ['server', 'ui', 'store', 'runtime', 'tools'],
  protocol: ['engine', 'server', 'ui', 'store', 'runtime', 'tools'],
  ui: ['engine', 'server', 'store', 'runtime'],
};

for (const [folder, banned] of Object.entries(forbidden)) {
  test(`${folder}/ imports nothing from ${banned.join(', ')}`, () => {
    const crossings = importsOf(folder).flatMap(({ file, folders }) => folders.filter((f) => banned.includes(f)).map((f) => `${file} → ${f}/`));
    expect(crossings).toEqual([]);
  });
}
