/** A new chat: what this is, and — on the first visit — a model suited to this device. */
import { useServices } from '../app-context';
import { useStore } from '../external-store';
import { formatBytes } from '../format';
import { modelName, visibleModels } from '../model-names';
import { needsGpu, suggestModel } from '../suggest-model';
import { useGpuSupport } from '../use-gpu';
import { isRemote, isRoute, reachesProvider } from '../remote-models';
import { GpuNotice } from './gpu-notice';

export function EmptyState({ onOpenModels }: { onOpenModels?: () => void }) {
  const { models: modelsStore, settings: settingsStore, testModels } = useServices();
  const models = useStore(modelsStore);
  const settings = useStore(settingsStore);
  const gpu = useGpuSupport(modelsStore);
  const visible = visibleModels(models.models, testModels);
  const deviceMemoryGb = (navigator as Navigator & { deviceMemory?: number }).deviceMemory;
  const suggestion =
    settings.loaded && settings.model === null && gpu.usable !== undefined
      ? suggestModel(visible, {
          gpuUsable: gpu.usable,
          ...(models.status ? { cpuUsable: models.status.cpu.usable } : {}),
          ...(deviceMemoryGb !== undefined ? { deviceMemoryGb } : {}),
        })
      : null;
  const selected = visible.find((m) => m.id === settings.model);
  const downloading = suggestion ? models.downloads[suggestion.id] : undefined;
  // Never "nothing leaves" while a provider's model is chosen (or one not listed yet, which may be one).
  const privacy =
    settings.model !== null && selected === undefined
      ? ''
      : isRoute(selected)
        ? `What this device’s model cannot take goes to the server of the provider ${reachesProvider(selected)}. Chats stay in this browser.`
        : isRemote(selected)
          ? `What you type goes to the server of the provider ${selected!.owned_by}, which runs this model. Chats stay in this browser.`
          : 'Nothing you type leaves this device.';

  return (
    <div className="empty-state">
      <h2>Chat with a model that runs in your browser</h2>
      <p className="muted">
        {privacy}{' '}
        The same models answer your own code through an OpenAI-compatible API at <code>{location.origin}/v1</code>.
      </p>
      {(!selected || needsGpu(selected)) && <GpuNotice gpu={gpu} cpuModels={visible.some((m) => !needsGpu(m) && !isRemote(m) && !m.hidden)} cpu={models.status?.cpu} isolation={models.status?.isolation} />}
      {suggestion && (
        <div className="notice suggestion" aria-label="Suggested model">
          <p>
            <strong>Suggested for this device: {modelName(suggestion)}</strong>
            <span className="muted">
              {' '}
              — {suggestion.download_bytes ? `${formatBytes(suggestion.download_bytes)} download` : 'small download'}
              {suggestion.vram_bytes ? `, needs ${formatBytes(suggestion.vram_bytes)} of GPU memory` : ''}. Downloaded once, then it works offline.
            </span>
          </p>
          <button
            type="button"
            className="primary"
            disabled={downloading !== undefined}
            onClick={() => {
              settingsStore.update({ model: suggestion.id });
              if (models.status && modelsStore.cached(suggestion.id) === false) void modelsStore.download(suggestion.id);
            }}
          >
            {downloading ? 'Downloading…' : 'Download and use it'}
          </button>{' '}
          {onOpenModels && (
            <button type="button" onClick={onOpenModels}>
              See all models
            </button>
          )}
        </div>
      )}
      {models.loaded && visible.length === 0 && (
        <div className="notice" role="note">
          <p>This runtime has no models to offer yet.</p>
        </div>
      )}
      {settings.loaded && settings.model === null && !suggestion && visible.length > 0 && (
        <p>
          Choose a model to start{onOpenModels ? ' — ' : '.'}
          {onOpenModels && (
            <button type="button" className="link-button" onClick={onOpenModels}>
              open the model list
            </button>
          )}
        </p>
      )}
    </div>
  );
}
