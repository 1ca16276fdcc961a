/**
 * What kind of file an upload is, for text extraction: by its name's extension first (what
 * OpenAI goes by), then by its first bytes (a PDF or a zip sent without a known name), then
 * by the declared content type. Anything else is not read (`unsupported_file`).
 */

export type FileKind = 'text' | 'html' | 'pdf' | 'docx' | 'unsupported';

/** Text formats read as UTF-8: prose, data, and source code (OpenAI's list, and more languages). */
const TEXT_EXTENSIONS = new Set([
  'txt', 'md', 'markdown', 'rst', 'adoc', 'org', 'tex', 'json', 'jsonl', 'ndjson', 'csv', 'tsv', 'xml', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf', 'log', 'env',
  'c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'cs', 'java', 'kt', 'kts', 'scala', 'go', 'rs', 'py', 'pyi', 'rb', 'php', 'pl', 'pm', 'lua', 'r', 'jl', 'swift', 'm', 'mm',
  'js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx', 'css', 'scss', 'less', 'vue', 'svelte', 'sql', 'sh', 'bash', 'zsh', 'fish', 'ps1', 'bat', 'dart', 'ex', 'exs',
  'erl', 'hs', 'ml', 'mli', 'fs', 'clj', 'el', 'vim', 'gradle', 'cmake', 'dockerfile', 'makefile', 'proto', 'graphql', 'gql', 'tf', 'hcl', 'nix', 'zig', 'sol',
]);
const HTML_EXTENSIONS = new Set(['html', 'htm', 'xhtml']);

function extension(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot < 0 ? base.toLowerCase() : base.slice(dot + 1).toLowerCase();
}

export function fileKind(filename: string, contentType: string, head: Uint8Array): FileKind {
  const ext = extension(filename);
  if (ext === 'pdf') return 'pdf';
  if (ext === 'docx') return 'docx';
  if (HTML_EXTENSIONS.has(ext)) return 'html';
  if (TEXT_EXTENSIONS.has(ext)) return 'text';
  // No extension we know: the bytes say what they are (a PDF and a zip announce themselves).
  if (startsWith(head, '%PDF-')) return 'pdf';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/vnd.openxmlformats-officedocument.wordprocessingml.document') return 'docx';
  if (type === 'text/html') return 'html';
  if (type.startsWith('text/') || type === 'application/json' || type === 'application/xml') return 'text';
  return 'unsupported';
}

function startsWith(bytes: Uint8Array, ascii: string): boolean {
  if (bytes.length < ascii.length) return false;
  for (let i = 0; i < ascii.length; i++) if (bytes[i] !== ascii.charCodeAt(i)) return false;
  return true;
}
