/**
 * The layout ARCHITECTURE.md draws, checked on the source (non-test files; tests may cross,
 * they build whole servers):
 * `ui → (HTTP) → sw → transport → server → ports ← engine | store | tools`.
 * - `ports/` is the floor the server and its adapters meet on: it imports only contracts.
 * - `server/` knows its adapters only through `ports/`; they never import `server/`.
 * - Inside `server/`, stages by folder: routes answer HTTP and never import each other (their
 *   helpers live in `routes/http/`), no domain module imports a route, `request/` never
 *   imports `run/`, and both show stored items to the model through `model-view/`.
 * - Each engine backend is a wing (`engine/<wing>/`) reached from outside only through its
 *   `index.ts`; wings share `engine/`'s floor and never import each other.
 * - `sw/` is the package's `/v1` edge; our app's own service worker is `pwa/`.
 * - No two top-level folders import each other, directly or around a cycle.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
/** The package's public entries, as our app imports them (vite.config.ts and tsconfig.json aliases). */
const ALIASES: Record<string, string> = {
  'local-responses': 'package/index.ts',
  'local-responses/sw': 'package/sw.ts',
  'local-responses/python': 'package/python.ts',
  'local-responses/cpu': 'package/cpu.ts',
};
const MAX_LINES = 450;

interface SourceFile {
  /** Path relative to src/, with `/` separators. */
  file: string;
  lines: number;
  /** Every src file it imports (static, type-only, re-export or dynamic), relative to src/. */
  imports: string[];
}

function resolve(from: string, specifier: string): string | null {
  if (ALIASES[specifier]) return ALIASES[specifier]!;
  if (!specifier.startsWith('.')) return null; // a package
  const bare = specifier.split('?')[0]!;
  const base = path.resolve(path.dirname(path.join(SRC, from)), bare);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return path.relative(SRC, candidate).split(path.sep).join('/');
  }
  throw new Error(`${from}: cannot resolve '${specifier}'`);
}

function sources(): SourceFile[] {
  const out: SourceFile[] = [];
  for (const entry of fs.readdirSync(SRC, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name) || entry.name.endsWith('.d.ts')) continue;
    const file = path.relative(SRC, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    const text = fs.readFileSync(path.join(SRC, file), 'utf8');
    // Code only: doc comments show imports (`@example`) that are not the file's own.
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    const specifiers = [...code.matchAll(/(?:^|[^\w.])(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);
    const imports = specifiers.flatMap((s) => resolve(file, s) ?? []);
    out.push({ file, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), imports });
  }
  return out;
}

const files = sources();
const top = (file: string) => file.split('/')[0]!;
/** `server/routes/http/x.ts` → `server/routes/http`; a file at a folder's root → that folder. */
const folderOf = (file: string) => path.posix.dirname(file);

function crossings(filter: (from: string, to: string) => boolean): string[] {
  return files.flatMap(({ file, imports }) => imports.filter((to) => filter(file, to)).map((to) => `${file} → ${to}`));
}

describe('top-level folders', () => {
  const forbidden: Record<string, string[]> = {
    ports: ['engine', 'server', 'store', 'tools', 'runtime', 'client', 'transport', 'sw', 'pwa', 'package', 'ui'],
    protocol: ['engine', 'server', 'store', 'tools', 'runtime', 'client', 'transport', 'sw', 'pwa', 'package', 'ui', 'ports'],
    chat: ['engine', 'server', 'store', 'tools', 'runtime', 'client', 'transport', 'sw', 'pwa', 'package', 'ui', 'ports'],
    shared: ['protocol', 'chat', 'ports', 'engine', 'server', 'store', 'tools', 'runtime', 'client', 'transport', 'sw', 'pwa', 'package', 'ui'],
    server: ['engine', 'store', 'tools', 'runtime', 'client', 'transport', 'sw', 'pwa', 'package', 'ui'],
    engine: ['server', 'store', 'tools', 'runtime', 'client', 'transport', 'sw', 'pwa', 'package', 'ui'],
    store: ['server', 'engine', 'tools', 'runtime', 'client', 'transport', 'sw', 'pwa', 'package', 'ui'],
    tools: ['server', 'engine', 'store', 'runtime', 'client', 'sw', 'pwa', 'package', 'ui'],
    transport: ['server', 'engine', 'store', 'tools', 'runtime', 'client', 'sw', 'pwa', 'package', 'ui'],
    sw: ['package', 'pwa', 'server', 'engine', 'store', 'tools', 'runtime', 'client', 'ui'],
    ui: ['engine', 'server', 'store', 'runtime', 'tools', 'transport', 'sw', 'pwa'],
  };
  for (const [folder, banned] of Object.entries(forbidden)) {
    test(`${folder}/ imports nothing from ${banned.join(', ')}`, () => {
      expect(crossings((from, to) => top(from) === folder && banned.includes(top(to)))).toEqual([]);
    });
  }

  test('no cycle between top-level folders', () => {
    const edges = new Map<string, Set<string>>();
    for (const { file, imports } of files)
      for (const to of imports) if (top(file) !== top(to)) (edges.get(top(file)) ?? edges.set(top(file), new Set()).get(top(file))!).add(top(to));
    const cycles: string[] = [];
    const visit = (node: string, trail: string[]) => {
      for (const next of edges.get(node) ?? []) {
        if (trail.includes(next)) cycles.push([...trail.slice(trail.indexOf(next)), next].join(' → '));
        else visit(next, [...trail, next]);
      }
    };
    for (const node of edges.keys()) visit(node, [node]);
    expect(cycles).toEqual([]);
  });
});

describe('server/ by stage', () => {
  const isRoute = (file: string) => folderOf(file) === 'server/routes';
  const inRoutes = (file: string) => file.startsWith('server/routes/');
  const stage = (file: string) => (file.startsWith('server/') ? file.split('/')[1]! : '');

  test('has the stage folders and the server face', () => {
    for (const file of ['responses-server.ts', 'state/server-state.ts', 'state/retention.ts', 'routes/create-response.ts', 'routes/http/read-json.ts', 'request/prepare-request.ts', 'run/response-run.ts', 'output/present.ts', 'model-view/to-conversation.ts'])
      expect(fs.existsSync(path.join(SRC, 'server', file)), file).toBe(true);
  });

  test('the server root holds its face alone; state/ (below every stage) and the folders it uses import no stage', () => {
    const atRoot = files.filter(({ file }) => folderOf(file) === 'server').map(({ file }) => file);
    expect(atRoot).toEqual(['server/responses-server.ts']);
    const stages = ['routes', 'request', 'run', 'output', 'socket', 'model-view'];
    const below = ['state', 'files', 'sealing'];
    expect(crossings((from, to) => below.includes(stage(from)) && (stages.includes(stage(to)) || to === 'server/responses-server.ts'))).toEqual([]);
    // Nor does a folder below the stages reach back to the state (files and sealing are what it is made of).
    expect(crossings((from, to) => ['files', 'sealing'].includes(stage(from)) && stage(to) === 'state')).toEqual([]);
  });

  test('no route imports another route, and route helpers import no route', () => {
    expect(crossings((from, to) => inRoutes(from) && isRoute(to) && from !== to)).toEqual([]);
  });

  test('no domain module imports a route or a route helper', () => {
    expect(crossings((from, to) => top(from) === 'server' && !inRoutes(from) && from !== 'server/responses-server.ts' && inRoutes(to))).toEqual([]);
  });

  test('request/ never imports run/ (run/ reads the plan it made); model-view/, output/ and sealing/ import no stage that uses them', () => {
    // socket/ (WebSocket mode) is a transport into the same stages as routes/, never through a route.
    const banned: Record<string, string[]> = { request: ['run'], 'model-view': ['request', 'run', 'output', 'routes', 'socket'], output: ['request', 'run', 'routes', 'model-view', 'socket'], sealing: ['request', 'run', 'output', 'routes', 'model-view', 'socket'], socket: ['routes'], run: ['socket'] };
    expect(crossings((from, to) => (banned[stage(from)] ?? []).includes(stage(to)))).toEqual([]);
  });
});

describe('engine/ wings', () => {
  const wingOf = (file: string) => (file.startsWith('engine/') && file.split('/').length === 3 ? file.split('/')[1]! : null);

  test('each wing has an index.ts face', () => {
    for (const wing of ['webllm', 'wllama', 'remote']) expect(fs.existsSync(path.join(SRC, 'engine', wing, 'index.ts')), wing).toBe(true);
  });

  test('a wing imports only itself and the shared floor; the floor imports no wing', () => {
    expect(crossings((from, to) => top(from) === 'engine' && wingOf(to) !== null && wingOf(to) !== wingOf(from))).toEqual([]);
  });

  test('outside engine/, a wing is imported through its index.ts only', () => {
    expect(crossings((from, to) => top(from) !== 'engine' && wingOf(to) !== null && !to.endsWith('/index.ts'))).toEqual([]);
  });
});

describe('tools/ as plug-ins', () => {
  const toolFolder = (file: string) => (file.startsWith('tools/') && file.split('/').length === 3 ? file.split('/')[1]! : null);
  const TOOL_FOLDERS = ['python', 'web', 'mcp', 'file-search', 'tool-search'];

  test('each builtin tool is a folder with an index.ts face', () => {
    for (const folder of TOOL_FOLDERS) expect(fs.existsSync(path.join(SRC, 'tools', folder, 'index.ts')), folder).toBe(true);
  });

  test('outside tools/, a tool folder is imported through its index.ts only', () => {
    expect(crossings((from, to) => top(from) !== 'tools' && toolFolder(to) !== null && !to.endsWith('/index.ts'))).toEqual([]);
  });

  test('outside tools/, protocol/ and ui/, no source file names a builtin tool or its items (the registry knows them, by their descriptors)', () => {
    // Request tool types, item types, the builtins' model-side functions and ports.
    const names = /\b(code_interpreter|web_search(_preview)?|file_search|mcp_(call|list_tools|approval_request|approval_response)|CodeInterpreterPort|WebSearchPort|McpPort)\b|type === 'mcp'/;
    const naming = files
      .filter(({ file }) => !['tools', 'protocol', 'ui'].includes(top(file)))
      .filter(({ file }) => names.test(fs.readFileSync(path.join(SRC, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')))
      .map(({ file }) => file);
    // The tools' ports (what a tool's descriptor runs calls through) and the one error message that
    // suggests file search for an input too long for the context window.
    expect(naming).toEqual(['ports/tool-ports.ts', 'server/request/prepare-request.ts']);
  });
});

test('pwa/ holds our app’s service worker; sw/ holds the package’s /v1 edge', () => {
  expect(fs.existsSync(path.join(SRC, 'pwa/sw.ts'))).toBe(true);
  expect(fs.existsSync(path.join(SRC, 'sw/local-responses-edge.ts'))).toBe(true);
});

test(`no source file over ${MAX_LINES} lines`, () => {
  expect(files.filter((f) => f.lines > MAX_LINES).map((f) => `${f.file} (${f.lines})`)).toEqual([]);
});
