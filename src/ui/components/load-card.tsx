/**
 * A model download as a person follows it: the bar, size, percent and time left in the
 * catalog's units, Cancel; and a failure as one plain sentence with Retry, the runtime's
 * full message (URLs, modelBase, CORS) folded under "Details". The picker rows and the main
 * screen's card show the same pieces.
 */
import { useServices } from '../app-context';
import { useStore } from '../external-store';
import { describeLoad } from '../format';
import { describeLoadFailure, type LoadFailure } from '../load-failure';
import { modelName } from '../model-names';
import type { Download } from '../models-store';
import './load-card.css';

export function LoadProgressView({ id, label, download }: { id: string; label: string; download: Download }) {
  const view = describeLoad(download.phase, download.first, download.latest);
  return (
    <div className="download-progress" data-download-progress={id} data-load-phase={download.phase}>
      <progress max={1} value={view.value} aria-label={`Download of ${label}`} aria-valuetext={view.text} />
      <p className="progress-text" aria-live="polite">
        {view.text}
      </p>
    </div>
  );
}

export function LoadFailureView({ label, failure, onRetry }: { label: string; failure: LoadFailure; onRetry: () => void }) {
  const view = describeLoadFailure(failure, label);
  return (
    <div className="load-failure" role="alert">
      <p>{view.summary}</p>
      {view.retryable && (
        <button type="button" className="primary" onClick={onRetry}>
          Retry
        </button>
      )}
      <details>
        <summary>Details</summary>
        <p className="failure-details">{view.details}</p>
      </details>
    </div>
  );
}

/**
 * The main screen's card for the chosen model while it downloads or after its download
 * failed: what "Download and use it" (or sending a message) turned into. Nothing otherwise.
 */
export function ModelLoadCard({ modelId, note = null }: { modelId: string | null; note?: string | null }) {
  const { models } = useServices();
  const state = useStore(models);
  if (!modelId) return null;
  const download = state.downloads[modelId];
  const failure = state.failures[modelId];
  if (!download && !failure) return null;
  const entry = state.models.find((m) => m.id === modelId);
  const label = modelName(entry ?? modelId);
  return (
    <section className="load-card notice" aria-label={download ? `Downloading ${label}` : `${label} could not be loaded`}>
      {download ? (
        <>
          <p className="load-card-title">
            <strong>Downloading {label}</strong>
            {entry?.download_bytes ? <span className="muted"> — downloaded once, then it works offline</span> : null}
          </p>
          <LoadProgressView id={modelId} label={label} download={download} />
          {note && <p className="muted">{note}</p>}
          <button type="button" onClick={() => models.cancel(modelId)} aria-label={`Cancel the download of ${label}`}>
            Cancel
          </button>
        </>
      ) : (
        failure && <LoadFailureView label={label} failure={failure} onRetry={() => void models.download(modelId)} />
      )}
    </section>
  );
}
