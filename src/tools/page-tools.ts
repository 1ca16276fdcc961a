/**
 * Page side of the builtin tools, called by the leader page when it starts the runtime:
 * creates what only a window can (the Python sandbox frame) and returns the options to
 * pass to the runtime worker, with the port to transfer.
 *
 * @example
 * const { options, transfer } = prepareRuntimeTools(config);
 * control.start(Comlink.transfer({ ...startOptions, tools: options }, transfer));
 */
import { createPythonSandboxFrame } from './python';
import type { RuntimeToolsOptions, ToolsConfig } from '../protocol/runtime-options';

export function prepareRuntimeTools(config: ToolsConfig = {}): { options: RuntimeToolsOptions; transfer: Transferable[] } {
  // Python is opt-in: only with its files (`python.assets`) does the page make a sandbox.
  if (!config.python || !config.python.assets || typeof document === 'undefined') return { options: config, transfer: [] };
  const packageBaseUrl = config.python?.packageBaseUrl;
  const pythonPort = createPythonSandboxFrame(packageBaseUrl ? { packageBaseUrl } : {});
  return { options: { ...config, pythonPort }, transfer: [pythonPort] };
}
