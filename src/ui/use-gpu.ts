import { useEffect, useState } from 'react';
import { useStore } from './external-store';
import type { ModelsStore } from './models-store';

export interface GpuSupport {
  /** undefined while checking. */
  usable: boolean | undefined;
  reason: string | null;
  /** WebGPU works only through a software adapter (SwiftShader, WARP): far too slow for a model. */
  software?: boolean;
}

const NO_API = 'This browser has no WebGPU.';
const NO_ADAPTER = 'WebGPU is present but no GPU adapter is available (it may be turned off, or blocked for this GPU or driver).';

/**
 * Whether GPU models can run here: the runtime's own check (`/v1/local/status`) when it has
 * model management, else a quick check from the page. Unknown (`usable: undefined`) until the
 * runtime has answered: the page's own check could disagree with the runtime's, and a
 * "needs WebGPU" warning must never show before the check that decides it.
 */
export function useGpuSupport(models: ModelsStore): GpuSupport {
  const { status, loaded } = useStore(models);
  const [local, setLocal] = useState<GpuSupport>({ usable: undefined, reason: null });
  useEffect(() => {
    if (status || !loaded) return;
    const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
    if (!gpu) return setLocal({ usable: false, reason: NO_API });
    let live = true;
    gpu.requestAdapter().then(
      (adapter) => live && setLocal(adapter ? { usable: true, reason: null } : { usable: false, reason: NO_ADAPTER }),
      () => live && setLocal({ usable: false, reason: NO_ADAPTER }),
    );
    return () => {
      live = false;
    };
  }, [status, loaded]);
  if (status) return { usable: status.gpu.usable, reason: status.gpu.reason, software: status.gpu.usable && status.gpu.fallbackAdapter === true };
  return loaded ? local : { usable: undefined, reason: null };
}
