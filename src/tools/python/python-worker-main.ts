/**
 * The Python worker: runs inside the sandbox frame (an opaque origin), one per interpreter.
 *
 * `pythonWorkerMain` is not imported by anything that runs it: its source text
 * (`pythonWorkerSource()`) is sent to the frame, which starts it from a `blob:` URL. So
 * it must not use anything from outside its own body except its parameter — no imports,
 * no module-level names (types are fine: they are erased).
 *
 * It loads pyodide from Blobs it is given (no network): the two ES modules by `blob:`
 * URL, and the wasm, standard library and lock file through a `fetch` that answers
 * pyodide's own requests from memory while it starts.
 */
import type { PythonWorkerConfig, ToWorker } from './sandbox-protocol';

/** Source of the worker script; `import()` is passed in so the bundler never rewrites it. */
export function pythonWorkerSource(): string {
  return `(${pythonWorkerMain.toString()})((url) => import(url));\n`;
}

export function pythonWorkerMain(dynamicImport: (url: string) => Promise<Record<string, unknown>>): void {
  const scope = self as unknown as DedicatedWorkerGlobalScope;
  // Never fetched: a name the fetch shim below answers while pyodide starts.
  const INDEX = 'https://pyodide.invalid/';
  const TYPES: Record<string, string> = { 'pyodide.asm.wasm': 'application/wasm', 'python_stdlib.zip': 'application/zip', 'pyodide-lock.json': 'application/json' };
  // Runs one call in __main__ (state persists), prints the last expression's repr like a
  // notebook, prints tracebacks without the runner's own frames, and returns
  // {"error", "images"} as JSON (images: matplotlib figures left open, as PNG data URLs).
  const RUNNER = [
    'import sys, io, json, base64, traceback, __main__',
    'from pyodide.code import eval_code_async',
    'def _images():',
    '    plt = sys.modules.get("matplotlib.pyplot")',
    '    if plt is None:',
    '        return []',
    '    found = []',
    '    for number in plt.get_fignums():',
    '        buffer = io.BytesIO()',
    '        plt.figure(number).savefig(buffer, format="png", bbox_inches="tight")',
    '        found.append("data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii"))',
    '    plt.close("all")',
    '    return found',
    'async def _run(code):',
    '    error = None',
    '    try:',
    '        result = await eval_code_async(code, __main__.__dict__, filename="<python>")',
    '        if result is not None:',
    '            print(repr(result))',
    '    except SystemExit as exit:',
    '        if exit.code not in (None, 0):',
    '            error = f"SystemExit: {exit.code}"',
    '    except BaseException as exception:',
    '        tb = exception.__traceback__',
    '        while tb is not None and tb.tb_frame.f_code.co_filename != "<python>":',
    '            tb = tb.tb_next',
    '        sys.stderr.write("".join(traceback.format_exception(type(exception), exception, tb)))',
    '        error = "".join(traceback.format_exception_only(type(exception), exception)).strip()',
    '    finally:',
    '        sys.stdout.flush()',
    '        sys.stderr.flush()',
    '    try:',
    '        images = _images()',
    '    except Exception as exception:',
    '        images = []',
    '        sys.stderr.write(f"(figures could not be saved: {exception})\\n")',
    '    return json.dumps({"error": error, "images": images})',
    '_run',
  ].join('\n');

  interface Pyodide {
    setStdout(options: { write: (buffer: Uint8Array) => number }): void;
    setStderr(options: { write: (buffer: Uint8Array) => number }): void;
    setStdin(options: { stdin: () => string | null | undefined }): void;
    setInterruptBuffer(buffer: Int32Array): void;
    runPython(code: string, options: { globals: unknown }): unknown;
    toPy(value: unknown): unknown;
    loadPackagesFromImports(code: string, options: { messageCallback: (m: string) => void; errorCallback: (m: string) => void }): Promise<unknown>;
  }

  let pyodide: Pyodide | undefined;
  let runner: ((code: string) => Promise<string>) | undefined;
  let config: PythonWorkerConfig = { maxOutputChars: 20_000, maxImageChars: 4_000_000, maxErrorChars: 4_000 };
  let interrupt: Int32Array | null = null;
  // Output of the call running now, capped: an endless `print` must not flood the frame.
  let call = -1;
  let written = 0;
  let truncated = false;

  const emit = (text: string): void => {
    if (call < 0 || truncated || !text) return;
    const room = config.maxOutputChars - written;
    if (text.length > room) {
      text = text.slice(0, room);
      truncated = true;
    }
    written += text.length;
    if (text) scope.postMessage({ kind: 'output', call, text });
  };
  const writer = () => {
    const decoder = new TextDecoder();
    return {
      write(buffer: Uint8Array): number {
        emit(decoder.decode(buffer, { stream: true }));
        return buffer.length;
      },
    };
  };

  async function load(files: Record<string, Blob>): Promise<void> {
    const moduleUrl = (name: string) => URL.createObjectURL(new Blob([files[name]!], { type: 'text/javascript' }));
    const { loadPyodide } = (await dynamicImport(moduleUrl('pyodide.mjs'))) as { loadPyodide: (options: object) => Promise<Pyodide> };
    const createPyodideModule = (await dynamicImport(moduleUrl('pyodide.asm.mjs'))).default;
    const realFetch = scope.fetch;
    scope.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      const name = url.startsWith(INDEX) ? url.slice(INDEX.length) : '';
      const blob = files[name];
      if (blob) return Promise.resolve(new Response(blob, { headers: { 'content-type': TYPES[name] ?? 'application/octet-stream' } }));
      return realFetch(input, init);
    };
    try {
      pyodide = await loadPyodide({
        indexURL: INDEX,
        createPyodideModule,
        lockFileContents: await files['pyodide-lock.json']!.text(),
        ...(config.packageBaseUrl ? { packageBaseUrl: config.packageBaseUrl } : {}),
        // Unbuffered: stdout and stderr arrive in the order they were written.
        env: { PYTHONUNBUFFERED: '1', MPLBACKEND: 'agg' },
      });
    } finally {
      scope.fetch = realFetch; // model code sees the real one (which the frame's CSP limits)
    }
    pyodide.setStdout(writer());
    pyodide.setStderr(writer());
    pyodide.setStdin({ stdin: () => null }); // input() gets EOF: nobody can answer it
    if (interrupt) pyodide.setInterruptBuffer(interrupt);
    runner = pyodide.runPython(RUNNER, { globals: pyodide.toPy({}) }) as (code: string) => Promise<string>;
  }

  async function run(id: number, code: string): Promise<void> {
    call = id;
    written = 0;
    truncated = false;
    if (interrupt) interrupt[0] = 0;
    let error: string | null = null;
    let images: string[] = [];
    try {
      if (config.packageBaseUrl) {
        await pyodide!.loadPackagesFromImports(code, { messageCallback: () => {}, errorCallback: (m) => emit(`${m}\n`) });
      }
      const answer = JSON.parse(await runner!(code)) as { error: string | null; images: string[] };
      error = answer.error;
      images = answer.images;
    } catch (caught) {
      error = `The sandbox could not run the code: ${caught instanceof Error ? caught.message : String(caught)}`;
    }
    if (truncated) scope.postMessage({ kind: 'output', call: id, text: `\n[output cut: more than ${config.maxOutputChars} characters]\n` });
    call = -1;
    scope.postMessage({ kind: 'done', call: id, error, images });
  }

  // One message at a time, in order: a run never starts before the load finished.
  let queue: Promise<void> = Promise.resolve();
  scope.onmessage = (event: MessageEvent<ToWorker>) => {
    const message = event.data;
    // At once, not queued: the answer says the event loop is free, i.e. no code is running.
    if (message.kind === 'ping') return scope.postMessage({ kind: 'pong', nonce: message.nonce });
    queue = queue.then(async () => {
      if (message.kind === 'load') {
        config = message.config;
        interrupt = message.interrupt ? new Int32Array(message.interrupt) : null;
        try {
          await load(message.files);
          scope.postMessage({ kind: 'ready', interruptible: interrupt !== null });
        } catch (caught) {
          scope.postMessage({ kind: 'failed', message: `pyodide did not start: ${caught instanceof Error ? caught.message : String(caught)}` });
        }
      } else if (message.kind === 'run') {
        await run(message.call, message.code);
      }
    });
  };
}
