/**
 * Builtin tool calls as cards (code interpreter: code, logs, images; web search: the
 * query and its sources, opened pages, find-in-page), and client function calls shown
 * plainly — the app does not run functions, it shows what the model asked for.
 */
import type {
  ResponseCodeInterpreterToolCall,
  ResponseFunctionToolCall,
  ResponseFunctionWebSearch,
} from 'openai/resources/responses/responses';
import { CodeView } from './markdown-view';

const CODE_STATUS: Record<string, string> = {
  in_progress: 'Writing code…',
  interpreting: 'Running…',
  completed: 'Ran',
  incomplete: 'Stopped',
  failed: 'Failed',
};

export function CodeInterpreterCard({ call }: { call: ResponseCodeInterpreterToolCall }) {
  const running = call.status === 'in_progress' || call.status === 'interpreting';
  return (
    <section className="tool-card code-card" aria-label="Code interpreter call" aria-busy={running}>
      <header className="tool-card-head">
        <span className="tool-name">Python</span>
        <span className={`tool-status status-${call.status}`}>{CODE_STATUS[call.status] ?? call.status}</span>
      </header>
      <CodeView code={call.code ?? ''} language="python" />
      {call.outputs?.map((output, i) =>
        output.type === 'logs' ? (
          <pre key={i} className="tool-logs" aria-label="Output" tabIndex={0}>
            {output.logs || '(no output)'}
          </pre>
        ) : output.url.startsWith('data:image/') ? (
          <img key={i} className="tool-image" src={output.url} alt={`Image ${i + 1} produced by the code`} />
        ) : (
          // The sandbox only makes data: images; anything else must not load by itself.
          <p key={i} className="muted">
            Image {i + 1} is not inline and is not shown.
          </p>
        ),
      )}
    </section>
  );
}

/** "example.org/wiki/Paris" — enough to tell sources of one site apart. */
function shortUrl(url: string): string {
  try {
    const { host, pathname } = new URL(url);
    const text = host + (pathname === '/' ? '' : pathname);
    return text.length > 64 ? `${text.slice(0, 61)}…` : text;
  } catch {
    return url;
  }
}

export function WebSearchCard({ call }: { call: ResponseFunctionWebSearch }) {
  const action = call.action as
    | { type: 'search'; query: string; sources?: Array<{ url: string }> }
    | { type: 'open_page'; url: string | null }
    | { type: 'find_in_page'; url: string; pattern: string }
    | undefined;
  const busy = call.status === 'in_progress' || call.status === 'searching';
  return (
    <section className="tool-card search-card" aria-label="Web search call" aria-busy={busy}>
      <header className="tool-card-head">
        <span className="tool-name">
          {action?.type === 'open_page' ? 'Opened page' : action?.type === 'find_in_page' ? 'Searched in page' : 'Web search'}
        </span>
        <span className={`tool-status status-${call.status}`}>{busy ? 'Searching…' : call.status === 'failed' ? 'Failed' : 'Done'}</span>
      </header>
      {action?.type === 'search' && (
        <>
          <p className="search-query">“{action.query}”</p>
          {action.sources && action.sources.length > 0 && (
            <ul className="source-list">
              {action.sources.map((s) => (
                <li key={s.url}>
                  <a href={s.url} target="_blank" rel="noopener noreferrer">
                    {shortUrl(s.url)}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {action?.type === 'open_page' && action.url && (
        <p>
          <a href={action.url} target="_blank" rel="noopener noreferrer">
            {action.url}
          </a>
        </p>
      )}
      {action?.type === 'find_in_page' && (
        <p>
          “{action.pattern}” in{' '}
          <a href={action.url} target="_blank" rel="noopener noreferrer">
            {shortUrl(action.url)}
          </a>
        </p>
      )}
    </section>
  );
}

export function prettyArguments(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args; // still streaming, or not JSON: shown as written
  }
}

export function FunctionCallView({ call }: { call: ResponseFunctionToolCall }) {
  return (
    <section className="function-call" aria-label={`Function call ${call.name}`}>
      <p>
        Function call <code>{call.name}</code> <span className="muted">({call.call_id})</span>
      </p>
      <pre className="function-args" tabIndex={0}>{prettyArguments(call.arguments)}</pre>
    </section>
  );
}
