/**
 * The sandbox frame: a `<iframe sandbox="allow-scripts">` (no `allow-same-origin`, so its
 * origin is opaque) that the leader page creates. Model-written Python runs in workers
 * this frame starts, so it shares the frame's opaque origin and its Content Security
 * Policy: no IndexedDB, Cache Storage or service worker of the app (an opaque origin has
 * none it could reach), no `parent`/`top` (workers have no window), and no network at all
 * (`connect-src 'none'`, unless a package index was configured), so not the app's `/v1`
 * either.
 *
 * `sandboxFrameMain` runs inside the frame (the bootstrap of `sandboxFrameHtml` starts it
 * from `sandboxFrameScript()`), so like the worker's code it may use nothing outside its
 * own body.
 */
import type { FromFrame, PythonWorkerConfig, ToFrame } from './sandbox-protocol';
import { SANDBOX_BOOTSTRAP, type SandboxBootDetail } from './sandbox-bootstrap';
import { SANDBOX_HELLO } from './sandbox-protocol';

/**
 * The frame document, for `iframe.srcdoc`: its own policy (on top of the app's, which a
 * srcdoc frame inherits) and the bootstrap, which runs {@link sandboxFrameScript} once the
 * page posts it (see `sandbox-bootstrap.ts`).
 */
export function sandboxFrameHtml(options: { packageBaseUrl?: string } = {}): string {
  const connect = options.packageBaseUrl ? new URL(options.packageBaseUrl).origin : "'none'";
  const csp = [
    "default-src 'none'",
    // The bootstrap (inline); the frame's code and pyodide's modules from blob: URLs; its
    // wasm; `eval` for `pyodide.code.run_js` (it would run inside this sandbox anyway; the
    // app's inherited policy, which has no 'unsafe-eval', refuses it all the same).
    "script-src 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' blob:",
    'worker-src blob:',
    `connect-src ${connect}`,
  ].join('; ');
  return `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}"><title>Python sandbox</title><script>${SANDBOX_BOOTSTRAP}</script>`;
}

/** The frame's code (a script the bootstrap runs in the frame). */
export function sandboxFrameScript(): string {
  return `(${sandboxFrameMain.toString()})(${JSON.stringify(SANDBOX_HELLO)});`;
}

export function sandboxFrameMain(hello: string): void {
  let port: MessagePort | undefined;
  let setup: { workerUrl: string; files: Record<string, Blob>; config: PythonWorkerConfig } | undefined;
  const workers = new Map<string, { worker: Worker; interrupt: Int32Array | null }>();

  const send = (message: FromFrame) => port!.postMessage(message);

  /**
   * Worker messages are untrusted (model code can post too): rebuilt field by field, and
   * bounded before anything is passed on — a forged `done` carrying 60 MB of images goes
   * no further than its allowance. Anything else is dropped. The runtime checks again.
   */
  const relay = (worker: string, data: unknown) => {
    if (typeof data !== 'object' || data === null || !setup) return;
    const limits = setup.config;
    const m = data as Record<string, unknown>;
    const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : '');
    const call = typeof m.call === 'number' && Number.isSafeInteger(m.call) && m.call > 0 ? m.call : 0;
    if (m.kind === 'ready') send({ kind: 'ready', worker, interruptible: m.interruptible === true });
    else if (m.kind === 'failed') send({ kind: 'failed', worker, message: text(m.message, limits.maxErrorChars) });
    else if (m.kind === 'pong') send({ kind: 'pong', worker, nonce: text(m.nonce, 64) });
    else if (!call) return;
    else if (m.kind === 'output') send({ kind: 'output', worker, call, text: text(m.text, limits.maxOutputChars + 200) });
    else if (m.kind === 'done') {
      const images: string[] = [];
      let room = limits.maxImageChars;
      let imagesDropped = 0;
      for (const image of Array.isArray(m.images) ? m.images.slice(0, 1000) : []) {
        if (typeof image !== 'string' || !image.startsWith('data:image/')) continue;
        if (image.length > room) imagesDropped++;
        else {
          images.push(image);
          room -= image.length;
        }
      }
      send({ kind: 'done', worker, call, error: m.error == null ? null : text(m.error, limits.maxErrorChars) || 'error', images, imagesDropped });
    }
  };

  const spawn = (id: string) => {
    if (!setup) return send({ kind: 'failed', worker: id, message: 'the sandbox was not initialised' });
    // A classic worker: module workers from blob: URLs do not start in an opaque origin
    // (Chromium), classic ones do, and `import()` works in them.
    const worker = new Worker(setup.workerUrl, { name: `python ${id}` });
    // Only with cross-origin isolation: then a time limit interrupts instead of terminating.
    const interrupt = self.crossOriginIsolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
    worker.onmessage = (event) => relay(id, event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      send({ kind: 'failed', worker: id, message: event.message || 'the Python worker crashed' });
    };
    workers.set(id, { worker, interrupt });
    worker.postMessage({ kind: 'load', files: setup.files, config: setup.config, interrupt: interrupt ? interrupt.buffer : null });
  };

  const command = (m: ToFrame) => {
    if (m.kind === 'init') {
      const workerUrl = URL.createObjectURL(new Blob([m.workerSource], { type: 'text/javascript' }));
      setup = { workerUrl, files: m.files, config: m.config };
    } else if (m.kind === 'spawn') spawn(m.worker);
    else if (m.kind === 'run') workers.get(m.worker)?.worker.postMessage({ kind: 'run', call: m.call, code: m.code });
    else if (m.kind === 'ping') workers.get(m.worker)?.worker.postMessage({ kind: 'ping', nonce: m.nonce });
    else if (m.kind === 'interrupt') {
      const target = workers.get(m.worker)?.interrupt;
      if (target) Atomics.store(target, 0, 2); // 2 = SIGINT: KeyboardInterrupt in Python
    } else if (m.kind === 'kill') {
      workers.get(m.worker)?.worker.terminate();
      workers.delete(m.worker);
    }
  };

  addEventListener('sandbox-boot', (event: Event) => {
    // Only the bootstrap hands over the port (it took it from the page that made this
    // frame: it checks the message's source), and only once.
    const detail = (event as CustomEvent<Partial<SandboxBootDetail> | null>).detail;
    const given = Array.isArray(detail?.ports) ? detail.ports[0] : undefined;
    if (port || detail?.hello !== hello || !(given instanceof MessagePort)) return;
    port = given;
    port.onmessage = (e: MessageEvent<ToFrame>) => command(e.data);
  });
}
