/**
 * MCP items as cards: a server's tool list, a call (server, tool, arguments, output) and an
 * approval request with Approve / Deny. Everything an MCP server or the model wrote is
 * untrusted: it is rendered as React text (escaped), never as HTML or Markdown, and no link
 * in it is made clickable.
 */
import type { ResponseOutputItem } from 'openai/resources/responses/responses';
import { prettyArguments } from './tool-cards';

type McpListTools = ResponseOutputItem.McpListTools;
type McpCall = ResponseOutputItem.McpCall;
type McpApprovalRequest = ResponseOutputItem.McpApprovalRequest;

export function McpListToolsCard({ item, busy }: { item: McpListTools; busy: boolean }) {
  const listing = busy && !item.error && item.tools.length === 0;
  return (
    <section className="tool-card mcp-card" aria-label={`Tools of MCP server ${item.server_label}`} aria-busy={listing}>
      <header className="tool-card-head">
        <span className="tool-name">MCP server {item.server_label}</span>
        <span className={`tool-status status-${item.error ? 'failed' : listing ? 'in_progress' : 'completed'}`}>
          {item.error ? 'Could not list the tools' : listing ? 'Listing tools…' : `${item.tools.length} ${item.tools.length === 1 ? 'tool' : 'tools'}`}
        </span>
      </header>
      {item.error && <p className="mcp-error">{item.error}</p>}
      {item.tools.length > 0 && (
        <ul className="mcp-tool-list">
          {item.tools.map((tool) => (
            <li key={tool.name}>
              <code>{tool.name}</code>
              {tool.description ? <span className="muted"> — {tool.description}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const CALL_STATUS: Record<string, string> = {
  in_progress: 'Preparing…',
  calling: 'Calling…',
  completed: 'Done',
  incomplete: 'Stopped',
  failed: 'Failed',
};

/** The error of a call as one line; the tool's own error content is shown as the output. */
function callErrorText(error: McpCall['error']): string | null {
  if (!error) return null;
  if (typeof error === 'string') return error; // other servers send a string
  if (error.type === 'mcp_tool_execution_error') return 'The tool reported an error.';
  return error.message;
}

export function McpCallCard({ call }: { call: McpCall }) {
  const status = call.status ?? 'completed';
  const busy = status === 'in_progress' || status === 'calling';
  const error = callErrorText(call.error);
  return (
    <section className="tool-card mcp-card" aria-label={`MCP call ${call.name} on ${call.server_label}`} aria-busy={busy}>
      <header className="tool-card-head">
        <span className="tool-name">
          <code>{call.name}</code> on {call.server_label}
        </span>
        <span className={`tool-status status-${status}`}>{CALL_STATUS[status] ?? status}</span>
      </header>
      <pre className="function-args" aria-label="Arguments" tabIndex={0}>
        {prettyArguments(call.arguments)}
      </pre>
      {error && <p className="mcp-error">{error}</p>}
      {call.output != null && (
        <pre className="tool-logs" aria-label="Output" tabIndex={0}>
          {call.output || '(no output)'}
        </pre>
      )}
    </section>
  );
}

/**
 * `decision`: what the person answered (undefined: not yet). `onDecide` is given only for
 * a request that can be answered (one of the last answer's); `disabled` while that cannot
 * happen right now (an answer runs, no model, the runtime is not up).
 */
export function McpApprovalCard({
  request,
  decision,
  onDecide,
  disabled = false,
}: {
  request: McpApprovalRequest;
  decision: boolean | undefined;
  onDecide?: (approve: boolean) => void;
  disabled?: boolean;
}) {
  const open = decision === undefined;
  return (
    <section className="tool-card mcp-card approval-card" aria-label={`Approval request: ${request.name} on ${request.server_label}`} data-decision={open ? 'pending' : decision ? 'approved' : 'denied'}>
      <header className="tool-card-head">
        <span className="tool-name">
          Run <code>{request.name}</code> on {request.server_label}?
        </span>
        <span className={`tool-status status-${open ? 'in_progress' : decision ? 'completed' : 'failed'}`}>
          {open ? 'Waiting for your approval' : decision ? 'Approved' : 'Denied'}
        </span>
      </header>
      <pre className="function-args" aria-label="Arguments" tabIndex={0}>
        {prettyArguments(request.arguments)}
      </pre>
      {open && onDecide && (
        <div className="row-actions">
          <button type="button" className="primary" disabled={disabled} aria-label={`Approve ${request.name} on ${request.server_label}`} onClick={() => onDecide(true)}>
            Approve
          </button>
          <button type="button" className="danger" disabled={disabled} aria-label={`Deny ${request.name} on ${request.server_label}`} onClick={() => onDecide(false)}>
            Deny
          </button>
        </div>
      )}
      {open && !onDecide && <p className="muted">Not answered: the chat went on without it.</p>}
    </section>
  );
}
