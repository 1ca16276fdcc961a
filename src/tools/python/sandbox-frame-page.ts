/**
 * Page side of the Python sandbox: the leader page creates the sandbox frame (a runtime
 * worker cannot create iframes) and hands the runtime a MessagePort to it.
 */
import type { SandboxBootMessage } from './sandbox-bootstrap';
import { sandboxFrameHtml, sandboxFrameScript } from './sandbox-frame-inside';
import { SANDBOX_HELLO } from './sandbox-protocol';

export interface PythonSandboxFrameOptions {
  /** Origin the sandbox may download packages from (see `PythonWorkerConfig.packageBaseUrl`). */
  packageBaseUrl?: string;
  document?: Document;
}

/**
 * Adds the hidden sandbox frame to the page and returns the port that drives it (transfer
 * it to the runtime worker). Messages queue on the port until the frame has loaded.
 */
export function createPythonSandboxFrame(options: PythonSandboxFrameOptions = {}): MessagePort {
  const doc = options.document ?? document;
  const { port1, port2 } = new MessageChannel();
  const frame = doc.createElement('iframe');
  // allow-scripts without allow-same-origin: an opaque origin, cut off from this app's
  // storage, service worker and cookies.
  frame.setAttribute('sandbox', 'allow-scripts');
  // Where the page is cross-origin isolated, so is the frame, but only with this: the
  // permission's default allowlist is 'self', which an opaque origin never matches. It
  // gives the frame's workers SharedArrayBuffer, i.e. the interrupt buffer that stops a
  // runaway call with KeyboardInterrupt and keeps its state. It changes nothing the frame
  // can reach (still no storage, no /v1); it does give its code finer timers, a side channel
  // that the browser's process isolation of sandboxed frames is there to contain.
  frame.setAttribute('allow', 'cross-origin-isolated');
  frame.hidden = true;
  frame.title = 'Python sandbox';
  frame.srcdoc = sandboxFrameHtml(options.packageBaseUrl ? { packageBaseUrl: options.packageBaseUrl } : {});
  // The frame's code travels with the hello (its bootstrap runs it; see sandbox-bootstrap.ts).
  const boot: SandboxBootMessage = { hello: SANDBOX_HELLO, main: sandboxFrameScript() };
  frame.addEventListener('load', () => frame.contentWindow?.postMessage(boot, '*', [port2]), { once: true });
  (doc.body ?? doc.documentElement).append(frame);
  return port1;
}
