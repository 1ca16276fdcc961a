/**
 * Model text → safe HTML: Markdown (GFM) by `marked`, code blocks highlighted by
 * highlight.js, everything sanitized by `safe-html.ts` (model output is untrusted: no
 * scripts, no event handlers, nothing that loads by itself — external images become
 * links — and links open in a new tab without an opener or referrer).
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { Marked } from 'marked';
import { createSanitizer } from './safe-html';

const languages = { bash, c, cpp, css, go, java, javascript, json, markdown, python, rust, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);
hljs.registerAliases(['sh', 'shell', 'zsh'], { languageName: 'bash' });
hljs.registerAliases(['js', 'jsx', 'mjs'], { languageName: 'javascript' });
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });
hljs.registerAliases(['md'], { languageName: 'markdown' });

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Highlighted HTML for `code` (escaped plain text when the language is unknown). */
export function highlight(code: string, language?: string): string {
  const lang = language?.trim().split(/\s+/)[0]?.toLowerCase();
  if (lang && hljs.getLanguage(lang)) return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
  return escapeHtml(code);
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code({ text, lang }) {
      const language = lang?.trim().split(/\s+/)[0] ?? '';
      const label = language ? `<span class="code-lang">${escapeHtml(language)}</span>` : '';
      return `<pre class="code-block">${label}<code class="hljs${language ? ` language-${escapeHtml(language)}` : ''}">${highlight(text, language)}</code></pre>\n`;
    },
  },
});

/** Markdown → sanitized HTML, with the sanitizer of a given window (see `renderMarkdown`). */
export function markdownToSafeHtml(source: string, sanitize: (html: string) => string): string {
  return sanitize(marked.parse(source, { async: false }));
}

let pageSanitizer: ((html: string) => string) | undefined;

/** Markdown → sanitized HTML for this page. */
export function renderMarkdown(source: string): string {
  pageSanitizer ??= createSanitizer(window);
  return markdownToSafeHtml(source, pageSanitizer);
}
