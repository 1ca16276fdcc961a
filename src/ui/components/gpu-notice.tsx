import type { CpuStatus, IsolationStatus } from '../../protocol/local-status';
import type { GpuSupport } from '../use-gpu';

const GENERIC_ADVICE =
  'Use a recent Chrome or Edge (113 or later) on a computer, or Safari 26 or later; make sure hardware acceleration is on in the browser settings and the graphics driver is up to date.';

/** Said plainly, with what to do about it (the details fold away: on a phone they fill the screen). */
export function GpuNotice({ gpu, cpuModels, cpu, isolation }: { gpu: GpuSupport; cpuModels: boolean; cpu?: CpuStatus | undefined; isolation?: IsolationStatus | undefined }) {
  if (gpu.usable && gpu.software && cpuModels && cpu?.usable !== false)
    return (
      <div className="notice" role="note" aria-label="Software GPU only">
        <p>
          <strong>This device’s WebGPU is a software emulation, not a graphics card,</strong> so GPU models would take minutes per word
          here. The CPU models are suggested instead: they run on this device’s processor at a usable speed.
        </p>
      </div>
    );
  if (gpu.usable !== false) return null;
  const cpuBlocked = cpuModels && cpu?.usable === false;
  // Why the CPU models run on one thread here (the page is not cross-origin isolated).
  const singleThreaded = cpuModels && !cpuBlocked && isolation?.crossOriginIsolated === false;
  const threads = cpu?.threads && cpu.threads > 1 ? ` (on ${cpu.threads} threads)` : '';
  return (
    <div className="notice warning" role="note" aria-label="WebGPU not available">
      <p>
        <strong>This browser can’t run models on the GPU (no WebGPU).</strong>{' '}
        {cpuBlocked ? 'The CPU models can’t run here either.' : cpuModels ? `The CPU models still work here, more slowly${threads}.` : 'Models need WebGPU to run in this browser.'}
      </p>
      <details>
        <summary>Why, and what to do</summary>
        <p>{gpu.reason}</p>
        {cpuBlocked && <p>CPU models: {cpu?.reason}</p>}
        {singleThreaded && <p>CPU models: {isolation?.reason}</p>}
        <p>{GENERIC_ADVICE}</p>
      </details>
    </div>
  );
}
