/**
 * `docs/architecture.md` is the map a contributor reads first, so it must not lag the code:
 * - every folder directly under `src/`, and every folder under `src/server/` and
 *   `src/engine/`, has a row in its tables, and every folder a row names exists;
 * - a row's "May import" covers what the folder's files really import (beyond their own
 *   folder and its sub-folders), and allows nothing `import-boundaries.test.ts` forbids;
 * - every source path the page names (`src/…`, `test/…`, or a path that starts with a
 *   top-level folder of `src/`) exists — except inside `<!-- tools-refactor -->` …
 *   `<!-- /tools-refactor -->`, which describes the builtin-tools refactor under way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = path.join(ROOT, 'src');
const PAGE = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
const BOUNDARIES = fs.readFileSync(path.join(ROOT, 'test/node/import-boundaries.test.ts'), 'utf8');
/** The package's public entries, as our app imports them (as in import-boundaries.test.ts). */
const ALIASES: Record<string, string> = {
  'local-responses': 'package/index.ts',
  'local-responses/sw': 'package/sw.ts',
  'local-responses/python': 'package/python.ts',
  'local-responses/cpu': 'package/cpu.ts',
};

const posix = (p: string) => p.split(path.sep).join('/');
const TOP = fs.readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

/** Folders under `src/<dir>/`, at any depth, relative to src/. */
function foldersUnder(dir: string): string[] {
  return fs
    .readdirSync(path.join(SRC, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => posix(path.relative(SRC, path.join(e.parentPath, e.name))))
    .sort();
}

interface Row {
  /** Relative to src/, without the trailing slash: `server/state`. */
  folder: string;
  /** The code spans of the "May import" cell, as written (`files/`, `shared/`), or null when the table has no such column. */
  mayImport: string[] | null;
}

/** Every table row whose first cell is a `src/…/` folder. */
function rows(): Row[] {
  const out: Row[] = [];
  for (const line of PAGE.split('\n')) {
    const m = /^\|\s*`src\/([^`]+?)\/`\s*\|/.exec(line);
    if (!m) continue;
    const cells = line.split('|').slice(1, -1);
    const spans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((s) => s[1]!);
    out.push({ folder: m[1]!, mayImport: cells.length >= 3 ? spans(cells[2]!) : null });
  }
  return out;
}

const ROWS = rows();
const named = ROWS.map((r) => r.folder);

describe('the folders docs/architecture.md names', () => {
  test('it names every folder of src/, and every folder under src/server/ and src/engine/', () => {
    const required = [...TOP, ...foldersUnder('server'), ...foldersUnder('engine')];
    expect(required.filter((f) => !named.includes(f)), 'folders the page does not name (add a row)').toEqual([]);
  });

  test('every folder it names exists', () => {
    expect(named.filter((f) => !fs.existsSync(path.join(SRC, f)) || !fs.statSync(path.join(SRC, f)).isDirectory()), 'rows for folders that do not exist').toEqual([]);
  });

  test('no folder has two rows', () => {
    expect(named.filter((f, i) => named.indexOf(f) !== i)).toEqual([]);
  });
});

/** Code only, inside the page's tools-refactor regions removed. */
function outsideRefactor(text: string): string {
  return text.replace(/<!-- tools-refactor -->[\s\S]*?<!-- \/tools-refactor -->/g, '');
}

test('every source path the page names exists (outside the tools-refactor notes)', () => {
  const spans = [...outsideRefactor(PAGE).matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);
  const missing = spans.filter((span) => {
    if (/[<>*{}]/.test(span)) return false; // a pattern (`src/tools/<tool>/`, `src/engine/*.ts`), not a path
    const first = span.split('/')[0]!;
    let file: string;
    if (['src', 'test', 'docs', 'examples'].includes(first) && span.includes('/')) file = path.join(ROOT, span);
    else if (TOP.includes(first) && span.includes('/')) file = path.join(SRC, span);
    else return false;
    return !fs.existsSync(file);
  });
  expect(missing, 'paths in docs/architecture.md that do not exist').toEqual([]);
});

// ── What the files import, by the same reading as import-boundaries.test.ts ──────────────

function resolveImport(from: string, specifier: string): string | null {
  if (ALIASES[specifier]) return ALIASES[specifier]!;
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(path.join(SRC, from)), specifier.split('?')[0]!);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return posix(path.relative(SRC, candidate));
  }
  return null; // import-boundaries.test.ts reports it
}

/** [from, to] for every import between src files (non-test sources), relative to src/. */
function imports(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const entry of fs.readdirSync(SRC, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name) || entry.name.endsWith('.d.ts')) continue;
    const file = posix(path.relative(SRC, path.join(entry.parentPath, entry.name)));
    const code = fs.readFileSync(path.join(SRC, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const m of code.matchAll(/(?:^|[^\w.])(?:from|import)\s*\(?\s*'([^']+)'/g)) {
      const to = resolveImport(file, m[1]!);
      if (to) out.push([file, to]);
    }
  }
  return out;
}

const IMPORTS = imports();
const within = (file: string, folder: string) => file.startsWith(`${folder}/`);
const top = (file: string) => file.split('/')[0]!;

/**
 * What an import target is called in a row's "May import" cell: a top-level folder
 * (`shared/`); inside server/, a sibling stage (`state/`); inside engine/, the floor
 * (`engine/`) for a floor file, the wing's own name never (wings do not import each other).
 */
function targetName(row: string, to: string): string {
  if (row.startsWith('server/') && top(to) === 'server') {
    const stage = to.split('/')[1]!;
    return to.split('/').length === 2 ? 'server/responses-server.ts' : `${stage}/`;
  }
  if (row.startsWith('engine/') && top(to) === 'engine') return to.split('/').length === 2 ? 'engine/' : `engine/${to.split('/')[1]}/`;
  return `${top(to)}/`;
}

/** The import targets a row's folder really uses, beyond its own subtree, as the page names them. */
function actualTargets(folder: string): string[] {
  const nested = folder.includes('/');
  const seen = new Set<string>();
  for (const [from, to] of IMPORTS) {
    if (!within(from, folder) || within(to, folder)) continue;
    // A top-level row speaks of other top-level folders only; its own sub-folders are its business.
    if (!nested && top(to) === folder) continue;
    seen.add(targetName(folder, to));
  }
  return [...seen].sort();
}

/** Rows whose "May import" the test checks: top-level folders, server/ and engine/ sub-folders. */
const checked = ROWS.filter((r) => r.mayImport !== null && (!r.folder.includes('/') || top(r.folder) === 'server' || top(r.folder) === 'engine'));

describe('each folder’s "May import" on docs/architecture.md', () => {
  test('the tables have the rows to check', () => {
    expect(checked.map((r) => r.folder)).toEqual(expect.arrayContaining([...TOP, 'server/state', 'server/run', 'engine/webllm']));
  });

  for (const row of checked) {
    test(`src/${row.folder}/ imports only what its row allows`, () => {
      const allowed = new Set(row.mayImport);
      expect(actualTargets(row.folder).filter((t) => !allowed.has(t)), `imports of src/${row.folder}/ its row does not list`).toEqual([]);
    });
  }
});

// ── The rules of import-boundaries.test.ts, read from its source ─────────────────────────

/** A `const <name>: Record<string, string[]> = { key: ['a', …], … };` literal of that file. */
function recordLiteral(name: string): Record<string, string[]> {
  const block = new RegExp(`const ${name}: Record<string, string\\[\\]> = \\{([\\s\\S]*?)\\};`).exec(BOUNDARIES);
  if (!block) throw new Error(`import-boundaries.test.ts has no \`const ${name}: Record<string, string[]>\` any more: update docs-architecture.test.ts`);
  const out: Record<string, string[]> = {};
  for (const m of block[1]!.matchAll(/'?([\w-]+)'?\s*:\s*\[([^\]]*)\]/g)) out[m[1]!] = [...m[2]!.matchAll(/'([^']+)'/g)].map((s) => s[1]!);
  if (Object.keys(out).length === 0) throw new Error(`could not read \`${name}\` in import-boundaries.test.ts`);
  return out;
}

describe('docs/architecture.md agrees with import-boundaries.test.ts', () => {
  const forbidden = recordLiteral('forbidden');
  const banned = recordLiteral('banned');

  test('no top-level row allows a folder the boundaries forbid it', () => {
    const clashes = checked
      .filter((r) => !r.folder.includes('/'))
      .flatMap((r) => (forbidden[r.folder] ?? []).filter((f) => r.mayImport!.includes(`${f}/`)).map((f) => `${r.folder}/ → ${f}/`));
    expect(clashes).toEqual([]);
  });

  test('no server/ or engine/ row allows what the boundaries forbid it', () => {
    const clashes = checked
      .filter((r) => r.folder.includes('/'))
      .flatMap((r) => {
        const [parent, stage] = r.folder.split('/') as [string, string];
        const bannedTop = forbidden[parent] ?? [];
        const bannedStage = parent === 'server' ? (banned[stage] ?? []) : [];
        return r.mayImport!.filter((t) => bannedTop.includes(t.replace(/\/$/, '')) || bannedStage.includes(t.replace(/\/$/, ''))).map((t) => `${r.folder}/ → ${t}`);
      });
    expect(clashes).toEqual([]);
  });
});
