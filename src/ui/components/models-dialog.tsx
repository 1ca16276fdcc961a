/**
 * The model picker: `/v1/models` with size, GPU memory, capabilities and whether each is
 * downloaded; download with progress (bytes, percent, time left), cancel, delete from the
 * cache; storage used against what the browser allows.
 */
import { useEffect } from 'react';
import type { ModelEntry } from '../api';
import { useServices } from '../app-context';
import { useStore } from '../external-store';
import { formatBytes } from '../format';
import { modelName, visibleModels } from '../model-names';
import { needsGpu } from '../suggest-model';
import { byProvider, isRemote, isRoute } from '../remote-models';
import { useGpuSupport, type GpuSupport } from '../use-gpu';
import { Dialog } from './dialog';
import { GpuNotice } from './gpu-notice';
import { LoadFailureView, LoadProgressView } from './load-card';

function Storage() {
  const { models } = useServices();
  const { status } = useStore(models);
  const storage = status?.storage;
  if (!storage) return null;
  const fraction = storage.quotaBytes > 0 ? storage.usageBytes / storage.quotaBytes : 0;
  return (
    <div className="storage" aria-label="Storage">
      <label htmlFor="storage-meter">
        Storage: {formatBytes(storage.usageBytes)} used of {formatBytes(storage.quotaBytes)} available
        {storage.persisted ? ' (persistent)' : ' (the browser may clear it when space runs low)'}
      </label>
      <meter id="storage-meter" min={0} max={1} value={fraction} high={0.8} optimum={0}>
        {Math.round(fraction * 100)}%
      </meter>
    </div>
  );
}

/**
 * Whether a model belongs under "Runs on this device" rather than "Needs a GPU": GPU models
 * only with a real (not software) WebGPU adapter. A CPU model the browser cannot run (no
 * 64-bit WebAssembly) stays with the CPU models, marked and disabled: a GPU would not help it.
 */
function runsHere(model: ModelEntry, gpu: GpuSupport): boolean {
  return !needsGpu(model) || (gpu.usable === true && !gpu.software);
}

function ModelRow({ model, selected, gpu, onUse }: { model: ModelEntry; selected: boolean; gpu: GpuSupport; onUse: () => void }) {
  const { models } = useServices();
  const state = useStore(models);
  const local = state.status?.models.find((m) => m.id === model.id);
  const download = state.downloads[model.id];
  const failure = state.failures[model.id];
  const managed = state.status !== null;
  const name = modelName(model);
  // CPU models where the runtime says WebAssembly cannot run them (no memory64).
  const cpuBlocked = model.engine === 'wllama' && state.status?.cpu.usable === false;
  // A GPU model without WebGPU cannot start here at all (a software adapter still can, slowly).
  const gpuBlocked = needsGpu(model) && gpu.usable === false;
  const cachedLabel = local?.loaded ? 'Loaded' : local?.cached ? 'Downloaded' : local ? 'Not downloaded' : null;
  const blocked = gpuBlocked || cpuBlocked;
  return (
    <li className={selected ? 'model selected' : 'model'} data-model-id={model.id} aria-label={name}>
      <div className="model-main">
        <div className="model-title">
          <strong>{name}</strong>
          {model.hidden && <span className="tag">test</span>}
          {selected && <span className="tag accent">In use</span>}
          {cachedLabel && <span className={local?.cached ? 'tag ok' : 'tag'}>{cachedLabel}</span>}
          {gpuBlocked && <span className="tag warn">needs a GPU</span>}
          {needsGpu(model) && gpu.software && <span className="tag warn">very slow here</span>}
          {cpuBlocked && <span className="tag warn">needs 64-bit WebAssembly</span>}
        </div>
        <div className="model-facts">
          {model.download_bytes ? <span>{formatBytes(model.download_bytes)} download</span> : null}
          {model.route ? (
            <span>
              {model.route.prefer === 'local' ? `${model.route.local} here, else ${model.route.remote}` : `${model.route.remote}, else ${model.route.local} here`} — decided for each message
            </span>
          ) : isRemote(model) ? <span>on {model.owned_by}’s server</span> : model.vram_bytes ? <span>{formatBytes(model.vram_bytes)} GPU memory</span> : needsGpu(model) ? null : <span>runs on CPU</span>}
          {model.context_window && !model.route ? <span>{model.context_window.toLocaleString()} tokens context</span> : null}
          {model.capabilities?.tools && <span>tools</span>}
          {model.capabilities?.reasoning && <span>reasoning</span>}
          <span className="muted model-id">{model.id}</span>
        </div>
        {download && <LoadProgressView id={model.id} label={name} download={download} />}
        {failure && !download && <LoadFailureView label={name} failure={failure} onRetry={() => void models.download(model.id)} />}
      </div>
      <div className="model-actions">
        {/* One main action: use it (which downloads it when needed), or cancel its download. */}
        {download ? (
          <button type="button" onClick={() => models.cancel(model.id)} aria-label={`Cancel the download of ${name}`}>
            Cancel download
          </button>
        ) : !selected ? (
          <button type="button" className="primary" onClick={onUse} disabled={blocked} aria-label={`Use ${name}`}>
            Use
          </button>
        ) : managed && local && !local.cached && !failure ? (
          <button type="button" className="primary" onClick={() => void models.download(model.id)} aria-label={`Download ${name}`} disabled={blocked}>
            Download
          </button>
        ) : null}
        {managed && local?.cached && !download && (
          <button type="button" className="link-button danger" onClick={() => void models.deleteCached(model.id)} aria-label={`Delete ${name} from the cache`}>
            Delete from cache
          </button>
        )}
      </div>
    </li>
  );
}

export function ModelsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { models, settings: settingsStore, testModels } = useServices();
  const state = useStore(models);
  const settings = useStore(settingsStore);
  const gpu = useGpuSupport(models);
  useEffect(() => {
    if (open) void models.refresh();
  }, [open, models]);
  // The models this device runs best (the server marks them) first; otherwise the server's order.
  const listed = visibleModels(state.models, testModels);
  const list = [...listed.filter((m) => m.recommended), ...listed.filter((m) => !m.recommended)];
  const groups = [
    // Routes first: one name for this device's model and a provider's, decided per message.
    { key: 'routes', title: 'Auto (this device and a server)', note: 'Each message runs on this device when it can, on the server otherwise; the answer says which.', models: list.filter((m) => isRoute(m)) },
    { key: 'here', title: 'Runs on this device', note: null, models: list.filter((m) => !isRemote(m) && !isRoute(m) && runsHere(m, gpu)) },
    {
      key: 'gpu',
      title: 'Needs a GPU',
      note:
        gpu.usable === false
          ? 'These run on a graphics card through WebGPU, which this browser can’t use here.'
          : gpu.software
            ? 'This device has only a software WebGPU: these would work, at minutes per word.'
            : gpu.usable === undefined
              ? 'Checking whether this browser can use the GPU…'
              : null,
      models: list.filter((m) => !isRemote(m) && !isRoute(m) && !runsHere(m, gpu)),
    },
    // A provider's models run on its server: what is sent to them leaves this device.
    ...byProvider(list).map(({ provider, models }) => ({ key: `provider-${provider}`, title: `On ${provider} (a provider’s server)`, note: 'What you send to these models goes to that server.', models })),
  ];
  return (
    <Dialog open={open} title="Models" onClose={onClose} wide>
      <GpuNotice gpu={gpu} cpuModels={list.some((m) => !needsGpu(m) && !isRemote(m) && !m.hidden)} cpu={state.status?.cpu} isolation={state.status?.isolation} />
      {state.statusError && (
        <p className="row-error" role="alert">
          Could not read the runtime's model status: {state.statusError}
        </p>
      )}
      {state.loaded && state.status === null && state.statusError === null && (
        <p className="notice" role="note">
          Downloads are managed by the runtime when it has real models; this one lists its models only.
        </p>
      )}
      <Storage />
      {state.error && (
        <p className="row-error" role="alert">
          Could not list the models: {state.error}
        </p>
      )}
      {!state.loaded && <p className="muted">Loading the catalog…</p>}
      {state.loaded && list.length === 0 && <p>No models are available in this runtime.</p>}
      {groups.map(
        (group) =>
          group.models.length > 0 && (
            <section key={group.title} className="model-group" aria-labelledby={`model-group-${group.key}`}>
              <h3 id={`model-group-${group.key}`}>{group.title}</h3>
              {group.note && <p className="muted">{group.note}</p>}
              <ul className="model-list">
                {group.models.map((model) => (
                  <ModelRow
                    key={model.id}
                    model={model}
                    selected={settings.model === model.id}
                    gpu={gpu}
                    onUse={() => {
                      settingsStore.update({ model: model.id });
                      // Choosing a model that is not here yet starts its download, with progress.
                      if (state.status && models.cached(model.id) === false) void models.download(model.id);
                    }}
                  />
                ))}
              </ul>
            </section>
          ),
      )}
    </Dialog>
  );
}
