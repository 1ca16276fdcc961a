/** Sampling, limits, instructions, tools, MCP servers, providers, reasoning effort and stored responses; saved as they change. */
import { useServices } from '../app-context';
import { useStore } from '../external-store';
import type { ReasoningEffort } from '../settings';
import { Dialog } from './dialog';
import { InstallSection } from './install-section';
import { McpServersSection } from './mcp-servers-section';
import { ProvidersSection } from './providers-section';
import { RoutesSection } from './routes-section';
import { StorageSection } from './storage-section';
import { FilesSection } from './files-section';

export function SettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { settings: store } = useServices();
  const settings = useStore(store);
  return (
    <Dialog open={open} title="Settings" onClose={onClose}>
      <form className="settings-form" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="set-temperature">
            Temperature <output htmlFor="set-temperature">{settings.temperature.toFixed(1)}</output>
          </label>
          <input
            id="set-temperature"
            type="range"
            min={0}
            max={2}
            step={0.1}
            value={settings.temperature}
            onChange={(e) => store.update({ temperature: Number(e.target.value) })}
            aria-describedby="set-temperature-help"
          />
          <p id="set-temperature-help" className="help">
            Lower is more focused and repeatable; higher is more varied.
          </p>
        </div>
        <div className="field">
          <label htmlFor="set-max-tokens">Maximum output tokens</label>
          <input
            id="set-max-tokens"
            type="number"
            min={16}
            step={1}
            placeholder="No limit"
            value={settings.maxOutputTokens ?? ''}
            onChange={(e) => {
              const value = e.target.value === '' ? null : Math.max(16, Math.floor(Number(e.target.value)));
              store.update({ maxOutputTokens: value !== null && Number.isFinite(value) ? value : null });
            }}
            aria-describedby="set-max-tokens-help"
          />
          <p id="set-max-tokens-help" className="help">
            Empty for no limit (the model’s context window still applies). At least 16.
          </p>
        </div>
        <div className="field">
          <label htmlFor="set-instructions">Instructions (system prompt)</label>
          <textarea
            id="set-instructions"
            rows={4}
            value={settings.instructions}
            placeholder="e.g. Answer briefly, in English."
            onChange={(e) => store.update({ instructions: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="set-effort">Reasoning effort</label>
          <select id="set-effort" value={settings.reasoningEffort} onChange={(e) => store.update({ reasoningEffort: e.target.value as ReasoningEffort })} aria-describedby="set-effort-help">
            <option value="default">Model default</option>
            <option value="none">None (no thinking)</option>
            <option value="low">Low</option>
            <option value="medium">Medium</option>
            <option value="high">High</option>
          </select>
          <p id="set-effort-help" className="help">
            For models that think before answering (e.g. Qwen3).
          </p>
        </div>
        <fieldset className="field">
          <legend>Tools</legend>
          <label className="check">
            <input type="checkbox" checked={settings.codeInterpreter} onChange={(e) => store.update({ codeInterpreter: e.target.checked })} />
            Code interpreter (Python, runs in a sandbox in this browser)
          </label>
          <label className="check">
            <input type="checkbox" checked={settings.webSearch} onChange={(e) => store.update({ webSearch: e.target.checked })} />
            Web search
          </label>
          <label htmlFor="set-search-url" className="sub-label">
            Search provider (SearXNG address)
          </label>
          <input
            id="set-search-url"
            type="url"
            inputMode="url"
            placeholder="Empty: Wikipedia"
            value={settings.webSearchProviderUrl}
            onChange={(e) => store.update({ webSearchProviderUrl: e.target.value.trim() })}
            aria-describedby="set-search-url-help"
          />
          <p id="set-search-url-help" className="help">
            Leave empty to search Wikipedia, or give the address of a SearXNG instance with JSON output on (e.g. https://searx.example.org). A change applies after the app is reloaded.
          </p>
        </fieldset>
        <McpServersSection />
        <ProvidersSection />
        <RoutesSection />
        <StorageSection />
        {open && <FilesSection />}
        <InstallSection />
      </form>
    </Dialog>
  );
}
