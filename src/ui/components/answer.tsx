/** One answer: its output items in order, its status, and its token counts and speed. */
import type { ResponseOutputItem, ResponseOutputText } from 'openai/resources/responses/responses';
import { isRunning, tokensPerSecond, type Turn } from '../saved-chat';
import { formatTokensPerSecond } from '../format';
import { MarkdownView } from './markdown-view';
import { McpApprovalCard, McpCallCard, McpListToolsCard } from './mcp-cards';
import { CodeInterpreterCard, FunctionCallView, WebSearchCard } from './tool-cards';
import { Icon } from './icons';

/** How the answer's MCP approval requests are answered (chat-view fills it in). */
export interface ApprovalControls {
  /** Request id → approved, for the requests already answered in the conversation. */
  decisions: ReadonlyMap<string, boolean>;
  /** Only for the last answer: its requests can still be answered. */
  onDecide?: (requestId: string, approve: boolean) => void;
  disabled?: boolean;
}

function reasoningText(item: Extract<ResponseOutputItem, { type: 'reasoning' }>): string {
  const parts = item.content?.length ? item.content : item.summary;
  return parts.map((p) => p.text).join('\n');
}

function Reasoning({ text, streaming }: { text: string; streaming: boolean }) {
  const words = text.trim() ? text.trim().split(/\s+/).length : 0;
  return (
    <details className="reasoning">
      <summary>
        {streaming ? 'Thinking…' : 'Reasoning'} <span className="muted">({words} {words === 1 ? 'word' : 'words'})</span>
      </summary>
      <div className="reasoning-text">{text}</div>
    </details>
  );
}

/** The files an answer cites (file search), once each, as chips: names are untrusted, shown as text. */
function FileCitations({ parts }: { parts: ResponseOutputText[] }) {
  const files = new Map<string, string>();
  for (const part of parts) for (const a of part.annotations) if (a.type === 'file_citation' && !files.has(a.file_id)) files.set(a.file_id, a.filename);
  if (files.size === 0) return null;
  return (
    <ul className="file-citations" aria-label="Files cited">
      {[...files].map(([id, name]) => (
        <li key={id} className="file-chip" data-file-id={id} title={name}>
          <Icon name="file" size={14} />
          <span>{name}</span>
        </li>
      ))}
    </ul>
  );
}

function FileSearchCard({ call }: { call: Extract<ResponseOutputItem, { type: 'file_search_call' }> }) {
  const busy = call.status === 'in_progress' || call.status === 'searching';
  return (
    <section className="tool-card search-card" aria-label="File search call" aria-busy={busy}>
      <header className="tool-card-head">
        <span className="tool-name">Searched your files</span>
        <span className={`tool-status status-${call.status}`}>{busy ? 'Searching…' : call.status === 'failed' ? 'Failed' : 'Done'}</span>
      </header>
      {call.queries.length > 0 && <p className="search-query">{call.queries.map((q) => `“${q}”`).join(', ')}</p>}
    </section>
  );
}

function Citations({ parts }: { parts: ResponseOutputText[] }) {
  const seen = new Map<string, string>();
  for (const part of parts)
    for (const a of part.annotations) if (a.type === 'url_citation' && !seen.has(a.url)) seen.set(a.url, a.title || a.url);
  if (seen.size === 0) return null;
  return (
    <nav className="citations" aria-label="Sources">
      <span className="muted">Sources:</span>
      <ol>
        {[...seen].map(([url, title]) => (
          <li key={url}>
            <a href={url} target="_blank" rel="noopener noreferrer">
              {title}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function OutputItemView({ item, streaming, running, approvals }: { item: ResponseOutputItem; streaming: boolean; running: boolean; approvals?: ApprovalControls }) {
  switch (item.type) {
    case 'reasoning':
      return <Reasoning text={reasoningText(item)} streaming={streaming} />;
    case 'message': {
      const texts = item.content.filter((c): c is ResponseOutputText => c.type === 'output_text');
      const refusal = item.content.find((c) => c.type === 'refusal');
      return (
        <div className="message-text">
          <MarkdownView text={texts.map((t) => t.text).join('')} streaming={streaming} />
          {refusal && refusal.type === 'refusal' && <p className="refusal">{refusal.refusal}</p>}
          <Citations parts={texts} />
          <FileCitations parts={texts} />
        </div>
      );
    }
    case 'code_interpreter_call':
      return <CodeInterpreterCard call={item} />;
    case 'web_search_call':
      return <WebSearchCard call={item} />;
    case 'file_search_call':
      return <FileSearchCard call={item} />;
    case 'function_call':
      return <FunctionCallView call={item} />;
    case 'mcp_list_tools':
      return <McpListToolsCard item={item} busy={running} />;
    case 'mcp_call':
      return <McpCallCard call={item} />;
    case 'mcp_approval_request': {
      const onDecide = approvals?.onDecide;
      return (
        <McpApprovalCard
          request={item}
          decision={approvals?.decisions.get(item.id)}
          onDecide={onDecide && ((approve) => onDecide(item.id, approve))}
          disabled={approvals?.disabled ?? false}
        />
      );
    }
    case 'compaction':
      return <p className="compaction-note">Earlier messages were summarized by the model to fit its context window.</p>;
    default:
      return <pre className="function-args" tabIndex={0}>{JSON.stringify(item, null, 2)}</pre>;
  }
}

function statusNote(turn: Turn): string | null {
  switch (turn.status) {
    case 'queued':
      return turn.responseId ? 'Waiting for the model…' : 'Sending…';
    case 'in_progress':
      return turn.output.length === 0 ? 'Loading the model and reading your message…' : null;
    case 'cancelled':
      return 'Stopped.';
    case 'incomplete':
      switch (turn.incompleteReason) {
        case 'max_output_tokens':
          return 'Cut off: the answer reached the Maximum output tokens set in Settings.';
        case 'context_window':
          return 'Cut off: the conversation filled the model’s context window. Start a new chat to continue with room to spare.';
        case 'content_filter':
          return 'Cut off by a content filter.';
        default:
          return 'The answer is incomplete (the connection was lost or the tool rounds ran out).';
      }
    default:
      return null;
  }
}

export function Answer({ turn, approvals }: { turn: Turn; approvals?: ApprovalControls }) {
  const running = isRunning(turn);
  const note = statusNote(turn);
  const rate = tokensPerSecond(turn);
  const last = turn.output.length - 1;
  return (
    <div className="answer" aria-busy={running} data-status={turn.status} data-response-id={turn.responseId ?? undefined}>
      {turn.output.map((item, i) => (
        <OutputItemView key={item.id ?? i} item={item} streaming={running && i === last} running={running} approvals={approvals} />
      ))}
      {note && (
        <p className={running ? 'answer-note pending' : 'answer-note'} data-note={turn.status}>
          {note}
        </p>
      )}
      {turn.status === 'failed' && (
        <p className="answer-error" role="alert">
          {turn.error ?? 'The answer failed.'}
        </p>
      )}
      {turn.usage && (
        <p className="answer-meta" aria-label="Token usage">
          <span>{turn.usage.input_tokens} in</span>
          <span>
            {turn.usage.output_tokens} out
            {turn.usage.output_tokens_details.reasoning_tokens > 0 && ` (${turn.usage.output_tokens_details.reasoning_tokens} reasoning)`}
          </span>
          {rate !== null && <span>{formatTokensPerSecond(rate)}</span>}
          <span className="muted" data-served-by={turn.servedBy ?? turn.model}>
            {turn.servedBy && turn.servedBy !== turn.model ? `${turn.servedBy} (via ${turn.model})` : turn.model}
          </span>
        </p>
      )}
    </div>
  );
}
