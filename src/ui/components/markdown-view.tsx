import { useMemo } from 'react';
import { highlight, renderMarkdown } from '../markdown';

/** Sanitized Markdown (see markdown.ts): the only place model text becomes HTML. */
export function MarkdownView({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div className={streaming ? 'markdown streaming' : 'markdown'} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** A highlighted code block (escaped by highlight.js; no Markdown involved). */
export function CodeView({ code, language }: { code: string; language?: string }) {
  const html = useMemo(() => highlight(code, language), [code, language]);
  return (
    <pre className="code-block" tabIndex={0}>
      <code className="hljs" dangerouslySetInnerHTML={{ __html: html }} />
    </pre>
  );
}
