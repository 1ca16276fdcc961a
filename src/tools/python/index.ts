/**
 * The code interpreter (`code_interpreter`): Python on pyodide in an opaque-origin sandbox
 * frame, one worker per container. The runtime side (`pythonPort`, imported at the first
 * call), the page side (the sandbox frame only a window can make), and the tool's descriptor.
 */
import type { CodeInterpreterPort } from '../../ports/tool-ports';
import type { RuntimeToolsOptions } from '../../protocol/runtime-options';
import { onFirstUse } from '../on-first-use';

export { codeInterpreterTool } from './code-interpreter-tool';
export { createPythonSandboxFrame } from './sandbox-frame-page';
export { SANDBOX_BOOTSTRAP_HASH } from './sandbox-bootstrap';

/**
 * The interpreter, when the page gave the sandbox frame's port and Python's files
 * (`python.assets`): without the port there is no safe place to run Python, and without
 * the files nothing to run.
 */
export function pythonPort(options: RuntimeToolsOptions): CodeInterpreterPort | undefined {
  if (!options.python || !options.pythonPort || !options.python.assets) return undefined;
  const { assets, ...python } = options.python;
  const port = options.pythonPort;
  const interpreter = onFirstUse(async () => (await import('./sandboxed-python')).createSandboxedPython({ ...python, port, assets }));
  return { run: async (code, runOptions) => (await interpreter()).run(code, runOptions) };
}
