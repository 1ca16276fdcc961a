import type { GpuSupport } from '../use-gpu';

const GENERIC_ADVICE =
  'Use a recent Chrome or Edge (113 or later) on a computer, or Safari 26 or later; make sure hardware acceleration is on in the browser settings and the graphics driver is up to date.';

/** Said plainly, with what to do about it (the details fold away: on a phone they fill the screen). */
export function GpuNotice({ gpu, cpuModels }: { gpu: GpuSupport; cpuModels: boolean }) {
  if (gpu.usable !== false) return null;
  return (
    <div className="notice warning" role="note" aria-label="WebGPU not available">
      <p>
        <strong>This browser can’t run models on the GPU (no WebGPU).</strong>{' '}
        {cpuModels ? 'The CPU models still work here, more slowly.' : 'Models need WebGPU to run in this browser.'}
      </p>
      <details>
        <summary>Why, and what to do</summary>
        <p>{gpu.reason}</p>
        <p>{GENERIC_ADVICE}</p>
      </details>
    </div>
  );
}
