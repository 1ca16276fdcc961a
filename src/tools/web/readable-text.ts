/**
 * HTML → the text a model reads: Mozilla Readability picks the article (as Firefox's reader
 * view does), parsed with linkedom because workers have no DOMParser; the article's DOM is
 * then written out one block per line, with `#` headings and `-` list items, so
 * `find_in_page` can answer with lines.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom/worker';

export interface ReadableText {
  title: string;
  /** Whole readable text, one block per line (not cut). */
  text: string;
}

const BLOCKS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BR', 'DD', 'DIV', 'DL', 'DT', 'FIGCAPTION', 'FIGURE', 'FOOTER',
  'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION',
  'TABLE', 'TBODY', 'THEAD', 'TFOOT', 'TR', 'UL',
]);
const SKIPPED = new Set(['TITLE', 'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'CANVAS', 'IFRAME', 'OBJECT', 'HEAD']);
const CELLS = new Set(['TD', 'TH']);

interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

/** Readable text of an HTML page (`url` resolves relative links for Readability). */
export function readableText(html: string, url: string): ReadableText {
  const document = parseDocument(html);
  const pageTitle = (document.querySelector('title')?.textContent ?? '').trim();
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    // linkedom's document has no baseURI from a URL; Readability only needs it for links.
    Object.defineProperty(document, 'baseURI', { value: url, configurable: true });
    article = new Readability(document as unknown as Document, { charThreshold: 200 }).parse();
  } catch {
    article = null; // a page Readability cannot handle is read whole below
  }
  let text = article?.content ? blockText(parseDocument(article.content).body as unknown as DomNode) : '';
  // Nothing the reader view would show: read the page whole (Readability changed the
  // document it read, so from a fresh copy).
  if (!text) text = blockText(parseDocument(html).body as unknown as DomNode);
  return { title: (article?.title || pageTitle || url).trim(), text };
}

/**
 * linkedom does not add the implied `<html>`/`<body>` around a fragment (its `body` is then
 * a detached empty element); Readability and the walker need them.
 */
function parseDocument(html: string) {
  const { document } = parseHTML(html);
  if (document.documentElement?.nodeName.toUpperCase() === 'HTML' && document.body?.parentNode) return document;
  return parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`).document;
}

/** Text of `root`, one block element per line, whitespace collapsed outside `<pre>`. */
export function blockText(root: DomNode): string {
  const lines: string[] = [];
  let line = '';
  const breakLine = () => {
    const done = line.replace(/[ \t]+/g, ' ').trim();
    if (done) lines.push(done);
    line = '';
  };
  const walk = (node: DomNode, pre: boolean): void => {
    if (node.nodeType === 3) {
      line += pre ? (node.textContent ?? '') : (node.textContent ?? '').replace(/\s+/g, ' ');
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
    const tag = node.nodeName.toUpperCase();
    if (SKIPPED.has(tag)) return;
    if (tag === 'PRE') {
      breakLine();
      for (const child of Array.from(node.childNodes)) walk(child, true);
      for (const l of line.split('\n')) if (l.trim()) lines.push(l.replace(/\s+$/, ''));
      line = '';
      return;
    }
    const block = BLOCKS.has(tag);
    if (block) breakLine();
    const heading = /^H([1-6])$/.exec(tag);
    if (heading) line += `${'#'.repeat(Number(heading[1]))} `;
    if (tag === 'LI') line += '- ';
    if (CELLS.has(tag) && line.trim()) line += ' | ';
    for (const child of Array.from(node.childNodes)) walk(child, pre);
    if (block) breakLine();
  };
  walk(root, false);
  breakLine();
  return lines.filter((l) => !/^(#+|-)\s*$/.test(l)).join('\n');
}

/**
 * `text` cut to at most `maxChars` at a line or word boundary, with a note saying so (the
 * model can look for the rest with `find_in_page`).
 */
export function cutToBudget(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = text.lastIndexOf('\n', maxChars);
  if (end < maxChars * 0.8) end = text.lastIndexOf(' ', maxChars);
  if (end < maxChars * 0.8) end = maxChars;
  const shown = Math.round((end / text.length) * 100);
  return `${text.slice(0, end).trimEnd()}\n\n[The page goes on: this is the first ${shown}% of its text. Use find_in_page to look for something in the rest.]`;
}

/**
 * Lines of `text` containing `pattern` (case-insensitive), long ones trimmed around the
 * match, each after the heading of its section (if any) as context. At most `limit`.
 */
export function findLines(text: string, pattern: string, limit = 10, width = 300): string[] {
  const needle = pattern.toLowerCase().trim();
  if (!needle) return [];
  const lines = text.split('\n');
  const found: string[] = [];
  let heading = '';
  for (let i = 0; i < lines.length && found.length < limit; i++) {
    const line = lines[i]!;
    const at = line.toLowerCase().indexOf(needle);
    if (line.startsWith('#')) heading = line;
    if (at === -1) continue;
    const context = heading && heading !== line ? `${heading}\n` : '';
    found.push(`${context}${around(line, at, needle.length, width)}`);
  }
  return found;
}

function around(line: string, at: number, length: number, width: number): string {
  if (line.length <= width) return line;
  const start = Math.max(0, Math.min(at - Math.floor((width - length) / 2), line.length - width));
  return `${start > 0 ? '…' : ''}${line.slice(start, start + width)}${start + width < line.length ? '…' : ''}`;
}
