/**
 * The model picker: `/v1/models` with size, GPU memory, capabilities and whether each is
 * downloaded; download with progress (bytes, percent, time left), cancel, delete from the
 * cache; storage used against what the browser allows.
 */
import { useEffect } from 'react';
import type { ModelEntry } from '../api';
import { useServices } from '../app-context';
import { useStore } from '../external-store';
import { describeProgress, formatBytes } from '../format';
import { modelName, visibleModels } from '../model-names';
import type { Download } from '../models-store';
import { needsGpu } from '../suggest-model';
import { useGpuSupport } from '../use-gpu';
import { Dialog } from './dialog';
import { GpuNotice } from './gpu-notice';

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

function ProgressView({ id, download }: { id: string; download: Download }) {
  const text = describeProgress(download.first, download.latest);
  return (
    <div className="download-progress" data-download-progress={id}>
      <progress max={1} value={download.latest.progress} aria-label={`Download of ${modelName(id)}`} aria-valuetext={text} />
      <p className="progress-text" aria-live="polite">
        <span className="progress-numbers">{text}</span>
        {download.text && <span className="muted"> — {download.text}</span>}
      </p>
    </div>
  );
}

function ModelRow({ model, selected, gpuUsable, onUse }: { model: ModelEntry; selected: boolean; gpuUsable: boolean | undefined; onUse: () => void }) {
  const { models } = useServices();
  const state = useStore(models);
  const local = state.status?.models.find((m) => m.id === model.id);
  const download = state.downloads[model.id];
  const failure = state.failures[model.id];
  const managed = state.status !== null;
  // CPU models where the runtime says WebAssembly cannot run them (no memory64).
  const cpuBlocked = model.engine === 'wllama' && state.status?.cpu.usable === false;
  const cachedLabel = local?.loaded ? 'Loaded' : local?.cached ? 'Downloaded' : local ? 'Not downloaded' : null;
  return (
    <li className={selected ? 'model selected' : 'model'} data-model-id={model.id} aria-label={modelName(model)}>
      <div className="model-main">
        <div className="model-title">
          <strong>{modelName(model)}</strong>
          {model.hidden && <span className="tag">test</span>}
          {selected && <span className="tag accent">In use</span>}
          {cachedLabel && <span className={local?.cached ? 'tag ok' : 'tag'}>{cachedLabel}</span>}
          {gpuUsable === false && needsGpu(model) && <span className="tag warn">needs WebGPU</span>}
          {cpuBlocked && <span className="tag warn">needs 64-bit WebAssembly</span>}
          {model.recommended && gpuUsable === false && !cpuBlocked && <span className="tag ok">runs here</span>}
        </div>
        <div className="model-facts">
          {model.download_bytes ? <span>{formatBytes(model.download_bytes)} download</span> : null}
          {model.vram_bytes ? <span>{formatBytes(model.vram_bytes)} GPU memory</span> : needsGpu(model) ? null : <span>runs on CPU</span>}
          {model.context_window ? <span>{model.context_window.toLocaleString()} tokens context</span> : null}
          {model.capabilities?.tools && <span>tools</span>}
          {model.capabilities?.reasoning && <span>reasoning</span>}
          <span className="muted model-id">{model.id}</span>
        </div>
        {download && <ProgressView id={model.id} download={download} />}
        {failure && (
          <p className="row-error" role="alert">
            {failure}
          </p>
        )}
      </div>
      <div className="model-actions">
        {!selected && (
          <button type="button" className="primary" onClick={onUse}>
            Use
          </button>
        )}
        {managed && local && !local.cached && !download && (
          <button type="button" onClick={() => void models.download(model.id)}>
            Download
          </button>
        )}
        {download && (
          <button type="button" onClick={() => models.cancel(model.id)}>
            Cancel download
          </button>
        )}
        {managed && local?.cached && !download && (
          <button type="button" className="danger" onClick={() => void models.deleteCached(model.id)}>
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
  return (
    <Dialog open={open} title="Models" onClose={onClose} wide>
      <GpuNotice gpu={gpu} cpuModels={list.some((m) => !needsGpu(m) && !m.hidden)} cpu={state.status?.cpu} isolation={state.status?.isolation} />
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
      <ul className="model-list" aria-label="Available models">
        {list.map((model) => (
          <ModelRow
            key={model.id}
            model={model}
            selected={settings.model === model.id}
            gpuUsable={gpu.usable}
            onUse={() => {
              settingsStore.update({ model: model.id });
              // Choosing a model that is not here yet starts its download, with progress.
              if (state.status && models.cached(model.id) === false) void models.download(model.id);
            }}
          />
        ))}
      </ul>
    </Dialog>
  );
}
