/**
 * The README is the front door and `docs/` the reference behind it; both are read on GitHub
 * and in an editor, where a broken relative link is a dead end. Checked here:
 * - every relative link and image (Markdown or HTML) in README.md, CHANGELOG.md and docs/
 *   resolves to a file or folder of the repository (not to a build output or a path outside
 *   it), and an anchor into a Markdown file names one of its headings (GitHub's slugs);
 * - the README links every page of docs/, stays within 300 lines, and has the two commands
 *   in its first 40.
 * `docs/notes/` holds drafts that are folded into the pages later; it is not checked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** What `.gitignore` keeps out of the repository: a link there works only on a machine that built it. */
const NOT_IN_REPOSITORY = ['node_modules', 'dist', 'lib', 'test-results', '.vite'];

const posix = (p: string) => p.split(path.sep).join('/');
const DOCS = fs
  .readdirSync(path.join(ROOT, 'docs'), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.md'))
  .map((e) => posix(path.relative(ROOT, path.join(e.parentPath, e.name))))
  .filter((f) => !f.startsWith('docs/notes/'))
  .sort();
const PAGES = ['README.md', 'CHANGELOG.md', ...DOCS];

/** The text a reader sees as Markdown: fenced code blocks and inline code removed. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Every link target of a page: `[text](target)`, `![alt](target)`, `[ref]: target`, `href=`/`src=`. */
function targets(markdown: string): string[] {
  const text = prose(markdown);
  const out: string[] = [];
  for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]!);
  for (const m of text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/gm)) out.push(m[1]!);
  for (const m of text.matchAll(/\b(?:href|src)=["']([^"']+)["']/g)) out.push(m[1]!);
  return out;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/** GitHub's anchor for a heading: lower case, punctuation dropped (but `-` and `_`), spaces to `-`. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings, with GitHub's `-1`, `-2` for repeats. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = fs.readFileSync(file, 'utf8').replace(/^(```|~~~)[\s\S]*?^\1/gm, '');
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** What is wrong with `target` linked from `page`, or null. */
function brokenLink(page: string, target: string): string | null {
  const [rawPath, anchor] = target.split('#') as [string, string | undefined];
  const file = rawPath === '' ? path.join(ROOT, page) : path.resolve(path.dirname(path.join(ROOT, page)), decodeURI(rawPath.split('?')[0]!));
  const relative = posix(path.relative(ROOT, file));
  if (relative.startsWith('..') || path.isAbsolute(relative)) return 'outside the repository';
  if (NOT_IN_REPOSITORY.includes(relative.split('/')[0]!)) return 'in a folder the repository does not hold';
  if (!fs.existsSync(file)) return 'no such file';
  if (anchor && file.endsWith('.md') && !anchors(file).has(anchor.toLowerCase())) return `no heading #${anchor} in ${relative}`;
  return null;
}

describe('relative links resolve', () => {
  for (const page of PAGES) {
    test(page, () => {
      const markdown = fs.readFileSync(path.join(ROOT, page), 'utf8');
      const broken = targets(markdown)
        .filter((t) => !isExternal(t))
        .flatMap((t) => {
          const why = brokenLink(page, t);
          return why ? [`${t}: ${why}`] : [];
        });
      expect(broken).toEqual([]);
    });
  }

  test('the checker finds links, anchors and breakage', () => {
    expect(targets('[a](docs/x.md#y) ![b](img.png) `[c](no.md)` <img src="p.png">\n[r]: ref.md\n```\n[d](no.md)\n```')).toEqual(['docs/x.md#y', 'img.png', 'ref.md', 'p.png']);
    expect(slug('`file_search` on `/v1/responses`')).toBe('file_search-on-v1responses');
    expect(slug('What is stored: the `/v1/local` endpoints')).toBe('what-is-stored-the-v1local-endpoints');
    expect(brokenLink('README.md', 'docs/no-such-page.md')).toBe('no such file');
    expect(brokenLink('README.md', 'docs/api.md#no-such-heading')).toBe('no heading #no-such-heading in docs/api.md');
    expect(brokenLink('README.md', '../elsewhere.md')).toBe('outside the repository');
    expect(brokenLink('README.md', 'dist/index.html')).toBe('in a folder the repository does not hold');
  });
});

describe('the README is a front door', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const lines = readme.split('\n');

  test('at most 300 lines', () => {
    expect(lines.length).toBeLessThanOrEqual(300);
  });

  test('the two commands are in its first 40 lines', () => {
    const head = lines.slice(0, 40).join('\n');
    expect(head).toMatch(/^npm start\b/m);
    expect(head).toMatch(/^npm test\b/m);
  });

  test('it links every page of docs/', () => {
    const linked = new Set(targets(readme).map((t) => t.split('#')[0]!));
    expect(DOCS.filter((page) => !linked.has(page))).toEqual([]);
  });
});
