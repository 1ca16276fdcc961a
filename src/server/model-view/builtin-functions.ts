/**
 * How builtin tools look to the model: plain function tools in the family's own tool
 * format, so every chat format and parser works unchanged. `code_interpreter` is the
 * `python` function (the name models are trained on); `web_search` is three functions.
 */
import type { ToolSpec } from '../../chat/chat-format';
import type { Tool } from '../../protocol/create-request';

export const PYTHON: ToolSpec = {
  name: 'python',
  description:
    'Run Python 3 code in a sandbox and see what it prints (stdout and stderr). The state (variables, imports) is kept between calls in this conversation. Only the standard library is guaranteed; there is no network access to this app. Print what you want to see.',
  parameters: { type: 'object', properties: { code: { type: 'string', description: 'The Python code to run.' } }, required: ['code'] },
};

export const SEARCH: ToolSpec = {
  name: 'search',
  description: 'Search the web. Returns titles, URLs and snippets of the top results.',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
};

export const OPEN_PAGE: ToolSpec = {
  name: 'open_page',
  description: 'Open a web page by URL and read its main text.',
  parameters: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
};

export const FIND_IN_PAGE: ToolSpec = {
  name: 'find_in_page',
  description: 'Find the lines of a web page that contain a pattern (case-insensitive).',
  parameters: { type: 'object', properties: { url: { type: 'string' }, pattern: { type: 'string' } }, required: ['url', 'pattern'] },
};

/**
 * `file_search`: the model asks with a few queries and is shown the passages found, numbered
 * as sources; it cites one by writing its number in brackets, which becomes a `file_citation`.
 */
export const FILE_SEARCH: ToolSpec = {
  name: 'file_search',
  description:
    "Search the user's files for passages that answer a question. Give one or more short search queries. The passages come back numbered as sources [1], [2], …: answer from them, and cite the source of each fact by writing its number in brackets, like [1].",
  parameters: {
    type: 'object',
    properties: { queries: { type: 'array', items: { type: 'string' }, description: 'Search queries: a few keywords or a short question each.' } },
    required: ['queries'],
  },
};

export type BuiltinKind = 'code_interpreter' | 'web_search' | 'file_search';

/** Which builtin a model-side function name belongs to. */
export const BUILTIN_BY_NAME: ReadonlyMap<string, BuiltinKind> = new Map([
  ['python', 'code_interpreter'],
  ['search', 'web_search'],
  ['open_page', 'web_search'],
  ['find_in_page', 'web_search'],
  ['file_search', 'file_search'],
]);

export function isWebSearch(tool: Tool): boolean {
  return tool.type.startsWith('web_search');
}

/** The functions the model is told about for the request's tools (function tools as given). */
export function modelTools(tools: Tool[]): ToolSpec[] {
  const specs: ToolSpec[] = [];
  for (const tool of tools) {
    if (tool.type === 'function') specs.push({ name: tool.name, description: tool.description, parameters: tool.parameters });
    else if (tool.type === 'code_interpreter') specs.push(PYTHON);
    else if (isWebSearch(tool)) specs.push(SEARCH, OPEN_PAGE, FIND_IN_PAGE);
    else if (tool.type === 'file_search') specs.push(FILE_SEARCH);
  }
  return specs;
}
