/**
 * MCP servers in the Settings dialog: the list (with a token field each), add, remove.
 * The servers are saved with the settings (IndexedDB); a token never is: it stays in this
 * tab's memory (mcp-tokens.ts says why), so after a reload it is entered again.
 */
import { useId, useState } from 'react';
import { useServices } from '../app-context';
import { useStore } from '../external-store';
import { parseMcpServerFields, type McpServerFields } from '../mcp-server-form';
import type { McpServerSetting } from '../settings';

const EMPTY: McpServerFields = { label: '', url: '', token: '', tools: '', requireApproval: 'always' };

function ServerRow({ server, token, onToken, onRemove }: { server: McpServerSetting; token: string; onToken: (token: string) => void; onRemove: () => void }) {
  const id = useId();
  return (
    <li data-server={server.label}>
      <strong>{server.label}</strong> <span className="muted">{server.url}</span>
      <p className="help">
        {server.allowedTools.length ? `Tools: ${server.allowedTools.join(', ')}` : 'All of its tools'} ·{' '}
        {server.requireApproval === 'always' ? 'asks before every call' : 'calls without asking'} · {token ? 'token set' : 'no token'}
      </p>
      <label htmlFor={`${id}-token`} className="sub-label">
        Token for {server.label} (kept for this tab only)
      </label>
      <input id={`${id}-token`} type="password" autoComplete="off" value={token} placeholder="None" onChange={(e) => onToken(e.target.value.trim())} />
      <div className="row-actions">
        <button type="button" className="danger" aria-label={`Remove MCP server ${server.label}`} onClick={onRemove}>
          Remove
        </button>
      </div>
    </li>
  );
}

export function McpServersSection() {
  const { settings: store, mcpTokens } = useServices();
  const { mcpServers } = useStore(store);
  const tokens = useStore(mcpTokens);
  const [fields, setFields] = useState<McpServerFields>(EMPTY);
  const [error, setError] = useState<{ field: 'label' | 'url'; message: string } | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const edit = (patch: Partial<McpServerFields>) => {
    setFields((f) => ({ ...f, ...patch }));
    setError(null);
    setAdded(null);
  };

  const add = () => {
    const result = parseMcpServerFields(fields, mcpServers);
    if (!result.ok) return setError({ field: result.field, message: result.message });
    mcpTokens.setToken(result.server.label, result.token);
    store.update({ mcpServers: [...mcpServers, result.server] });
    setFields(EMPTY);
    setAdded(result.server.label);
  };

  const remove = (label: string) => {
    mcpTokens.setToken(label, '');
    store.update({ mcpServers: mcpServers.filter((s) => s.label !== label) });
  };

  const errorId = (field: 'label' | 'url') => (error?.field === field ? 'set-mcp-error' : undefined);
  return (
    <fieldset className="field mcp-servers">
      <legend>MCP servers</legend>
      <p className="help">
        Tools of remote MCP servers the model may call. A server on this computer or your network (e.g. localhost) can be reached after the app is reloaded.
        Tokens are kept for this tab only — never saved — so enter them again after a reload.
      </p>
      {mcpServers.length > 0 ? (
        <ul className="mcp-server-list" aria-label="MCP servers">
          {mcpServers.map((server) => (
            <ServerRow
              key={server.label}
              server={server}
              token={Object.hasOwn(tokens, server.label) ? tokens[server.label]! : ''}
              onToken={(token) => mcpTokens.setToken(server.label, token)}
              onRemove={() => remove(server.label)}
            />
          ))}
        </ul>
      ) : (
        <p className="muted">No MCP servers yet.</p>
      )}
      <label htmlFor="set-mcp-label" className="sub-label">
        Name
      </label>
      <input id="set-mcp-label" type="text" value={fields.label} placeholder="e.g. calc" aria-invalid={error?.field === 'label'} aria-describedby={errorId('label')} onChange={(e) => edit({ label: e.target.value })} />
      <label htmlFor="set-mcp-url" className="sub-label">
        Address
      </label>
      <input
        id="set-mcp-url"
        type="url"
        inputMode="url"
        value={fields.url}
        placeholder="https://example.org/mcp"
        aria-invalid={error?.field === 'url'}
        aria-describedby={errorId('url')}
        onChange={(e) => edit({ url: e.target.value })}
      />
      <label htmlFor="set-mcp-token" className="sub-label">
        Token (optional, kept for this tab only)
      </label>
      <input id="set-mcp-token" type="password" autoComplete="off" value={fields.token} onChange={(e) => edit({ token: e.target.value })} />
      <label htmlFor="set-mcp-tools" className="sub-label">
        Allowed tools (comma-separated; empty: all)
      </label>
      <input id="set-mcp-tools" type="text" value={fields.tools} placeholder="e.g. add, multiply" onChange={(e) => edit({ tools: e.target.value })} />
      <label htmlFor="set-mcp-approval" className="sub-label">
        Approval
      </label>
      <select id="set-mcp-approval" value={fields.requireApproval} onChange={(e) => edit({ requireApproval: e.target.value === 'never' ? 'never' : 'always' })}>
        <option value="always">Ask me before every call</option>
        <option value="never">Call without asking</option>
      </select>
      {error && (
        <p id="set-mcp-error" className="mcp-error" role="alert">
          {error.message}
        </p>
      )}
      <div className="row-actions">
        <button type="button" onClick={add}>
          Add MCP server
        </button>
      </div>
      {added && (
        <p className="help" role="status">
          Added {added}.
        </p>
      )}
    </fieldset>
  );
}
