/**
 * One model-written JavaScript program in QuickJS (wasm): the sandbox's core, run inside a
 * worker of its own in the browser (program-worker-main.ts) and in-process by Node tests.
 *
 * QuickJS has no host API unless one is handed in: no fetch, XMLHttpRequest, importScripts,
 * storage, timers or DOM, and no module loader (so `import()` rejects). The one thing handed
 * in is `tools`: each allowed tool is a function that returns a promise, settled when the
 * host answers the call. The program runs in slices — until its job queue is empty — and
 * between slices it is only data in wasm memory, so it can wait for a client's answer for as
 * long as the host keeps it.
 *
 * Limits: CPU time (summed over slices; QuickJS's interrupt handler, whose `interrupted`
 * error the program cannot catch), heap (`setMemoryLimit`), stack, calls made, and the size
 * of arguments and of the result.
 */
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import type { CallAnswer, ProgramLimits, ProgramStep, ProgramToolCall } from './program-protocol';

/**
 * The wrapper that makes `tools` out of the paths and the one host function (`call`); nothing
 * else is global. `console` is there because models write `console.log` by habit: its output
 * goes nowhere (a program's result is what it returns).
 */
const TOOLS_SETUP = `(function (call, paths) {
  const ignore = () => undefined;
  globalThis.console = Object.freeze({ log: ignore, info: ignore, warn: ignore, error: ignore, debug: ignore });
  const tools = {};
  for (const path of paths) {
    let node = tools;
    for (const key of path.slice(0, -1)) node = node[key] ??= {};
    const pathJson = JSON.stringify(path);
    node[path[path.length - 1]] = (args) => call(pathJson, JSON.stringify(args === undefined ? {} : args));
  }
  for (const node of [tools, ...Object.values(tools)]) Object.freeze(node);
  return tools;
})`;

export class ProgramVm {
  readonly #runtime: QuickJSRuntime;
  readonly #context: QuickJSContext;
  readonly #limits: ProgramLimits;
  readonly #pending = new Map<number, QuickJSDeferredPromise>();
  #made: ProgramToolCall[] = [];
  #nextId = 1;
  #calls = 0;
  #spentMs = 0;
  #overTime = false;
  #main: QuickJSHandle | null = null;
  #ended: ProgramStep | null = null;

  constructor(module: QuickJSWASMModule, limits: ProgramLimits) {
    this.#limits = limits;
    this.#runtime = module.newRuntime();
    this.#runtime.setMemoryLimit(limits.memoryBytes);
    this.#runtime.setMaxStackSize(limits.stackBytes);
    this.#context = this.#runtime.newContext();
  }

  /** Starts `code` (the body of an async function) with `tools` built from `paths`; the first step. */
  start(code: string, paths: readonly (readonly string[])[]): ProgramStep {
    const ctx = this.#context;
    const call = ctx.newFunction('call', (pathHandle, argsHandle) => this.#onCall(ctx.getString(pathHandle), ctx.getString(argsHandle)));
    const setup = this.#slice(() => ctx.evalCode(TOOLS_SETUP, 'tools.js'));
    if (setup.error) {
      call.dispose();
      setup.error.dispose();
      return this.#end({ type: 'failed', error: 'The program sandbox could not start.' });
    }
    const pathsHandle = this.#json(paths);
    const tools = ctx.callFunction(setup.value, ctx.undefined, call, pathsHandle);
    setup.value.dispose();
    call.dispose();
    pathsHandle.dispose();
    if (tools.error) {
      tools.error.dispose();
      return this.#end({ type: 'failed', error: 'The program sandbox could not start.' });
    }
    ctx.setProp(ctx.global, 'tools', tools.value);
    tools.value.dispose();
    // Line 1 of the error positions is the program's first line.
    const main = this.#slice(() => ctx.evalCode(`(async () => {\n${code}\n})()`, 'program.js'));
    if (main.error) return this.#end({ type: 'failed', error: this.#describe(main.error, true) });
    this.#main = main.value;
    return this.#settle();
  }

  /** Answers calls the program made (each once); runs it on until it waits again or ends. */
  answer(answers: readonly CallAnswer[]): ProgramStep {
    if (this.#ended) return this.#ended;
    const ctx = this.#context;
    for (const answer of answers) {
      const deferred = this.#pending.get(answer.id);
      if (!deferred) continue;
      this.#pending.delete(answer.id);
      const value = answer.ok ? ctx.newString(answer.output) : ctx.newError({ name: 'ToolError', message: answer.error });
      if (answer.ok) deferred.resolve(value);
      else deferred.reject(value);
      value.dispose();
      deferred.dispose();
    }
    return this.#settle();
  }

  /** Frees the interpreter (the program is over, or dropped). */
  dispose(): void {
    for (const deferred of this.#pending.values()) deferred.dispose();
    this.#pending.clear();
    this.#main?.dispose();
    this.#main = null;
    this.#context.dispose();
    this.#runtime.dispose();
  }

  /** The host side of `tools.x(args)`: a promise the host settles later. */
  #onCall(pathJson: string, argsJson: string): QuickJSHandle {
    const ctx = this.#context;
    const deferred = ctx.newPromise();
    if (++this.#calls > this.#limits.maxCalls) {
      const error = ctx.newError({ name: 'ToolError', message: `A program may make at most ${this.#limits.maxCalls} tool calls.` });
      deferred.reject(error);
      error.dispose();
    } else if (argsJson.length > this.#limits.maxArgsChars) {
      const error = ctx.newError({ name: 'ToolError', message: `Tool arguments may be at most ${this.#limits.maxArgsChars} characters of JSON.` });
      deferred.reject(error);
      error.dispose();
    } else {
      const id = this.#nextId++;
      this.#pending.set(id, deferred);
      this.#made.push({ id, path: JSON.parse(pathJson) as string[], arguments: argsJson });
    }
    // The handle goes to the program; the deferred keeps its own reference for settling.
    return deferred.handle;
  }

  /** Runs queued jobs, then reads where the program stands. */
  #settle(): ProgramStep {
    const jobs = this.#slice(() => {
      const result = this.#runtime.executePendingJobs(-1);
      return result.error ? { error: result.error } : { value: undefined };
    });
    if (this.#overTime) return this.#end({ type: 'failed', error: this.#timeMessage() });
    // An error a job threw outside the program's promise (it rejects the promise too); only the promise's state counts.
    jobs.error?.dispose();
    const main = this.#main;
    if (!main) return this.#end({ type: 'failed', error: 'The program did not start.' });
    const state = this.#context.getPromiseState(main);
    if (state.type === 'fulfilled') {
      const result = this.#resultJson(state.value);
      state.value.dispose();
      return this.#end(result);
    }
    if (state.type === 'rejected') {
      const error = this.#describe(state.error, false);
      return this.#end({ type: 'failed', error });
    }
    const calls = this.#made;
    this.#made = [];
    if (calls.length === 0 && this.#pending.size === 0)
      return this.#end({ type: 'failed', error: 'The program is waiting for something that can never happen (a promise no tool call settles).' });
    return { type: 'calls', calls };
  }

  /** The program's return value as JSON (undefined → null), within the result limit. */
  #resultJson(value: QuickJSHandle): ProgramStep {
    const ctx = this.#context;
    const stringify = this.#slice(() => ctx.evalCode('(v) => { const s = JSON.stringify(v); return s === undefined ? "null" : s; }', 'result.js'));
    if (stringify.error) {
      stringify.error.dispose();
      return { type: 'failed', error: 'The program’s result could not be read.' };
    }
    const json = this.#slice(() => ctx.callFunction(stringify.value, ctx.undefined, value));
    stringify.value.dispose();
    if (this.#overTime) return { type: 'failed', error: this.#timeMessage() };
    if (json.error) return { type: 'failed', error: `The program’s return value is not JSON: ${this.#describe(json.error, false)}` };
    const text = ctx.getString(json.value);
    json.value.dispose();
    if (text.length > this.#limits.maxResultChars) return { type: 'failed', error: `The program’s return value is ${text.length} characters of JSON; at most ${this.#limits.maxResultChars} are allowed.` };
    return { type: 'done', result: text };
  }

  /** Runs `work` with the CPU clock running; the interrupt handler stops it at the limit. */
  #slice<T>(work: () => { error?: QuickJSHandle; value?: T } | { error: QuickJSHandle } | { value: T }): { error?: QuickJSHandle; value: T } {
    const started = performance.now();
    const budget = this.#limits.cpuMs - this.#spentMs;
    this.#runtime.setInterruptHandler(() => {
      if (performance.now() - started <= budget) return false;
      this.#overTime = true;
      return true;
    });
    try {
      return work() as { error?: QuickJSHandle; value: T };
    } finally {
      this.#runtime.removeInterruptHandler();
      this.#spentMs += performance.now() - started;
    }
  }

  /** A JSON value in the program's realm (JSON is a JavaScript expression). */
  #json(value: unknown): QuickJSHandle {
    const result = this.#context.evalCode(`(${JSON.stringify(value)})`, 'paths.js');
    if (result.error) {
      result.error.dispose();
      throw new Error('unreachable: JSON always evaluates');
    }
    return result.value;
  }

  /** An error the program threw (or a limit it hit), in words; disposes the handle. */
  #describe(handle: QuickJSHandle, compiling: boolean): string {
    let dumped: unknown;
    try {
      dumped = this.#context.dump(handle);
    } finally {
      handle.dispose();
    }
    if (this.#overTime) return this.#timeMessage();
    const error = typeof dumped === 'object' && dumped !== null ? (dumped as { name?: unknown; message?: unknown; stack?: unknown }) : null;
    const name = typeof error?.name === 'string' ? error.name : 'Error';
    const message = typeof error?.message === 'string' ? error.message : String(dumped);
    if (name === 'InternalError' && /out of memory/i.test(message))
      return `The program ran out of memory (its limit is ${Math.round(this.#limits.memoryBytes / 1024 / 1024)} MB).`;
    if (name === 'RangeError' && /stack overflow/i.test(message)) return 'The program overflowed its stack (too deep a recursion).';
    const where = typeof error?.stack === 'string' ? /program\.js:(\d+)/.exec(error.stack) : null;
    const line = where ? ` (line ${Number(where[1]) - 1})` : '';
    return `${compiling && name === 'SyntaxError' ? 'The program does not parse: ' : ''}${name}: ${message}${line}`.slice(0, 4000);
  }

  #timeMessage(): string {
    return `The program used more than its CPU time limit (${Math.round(this.#limits.cpuMs / 1000)} s) and was stopped.`;
  }

  #end(step: ProgramStep): ProgramStep {
    this.#ended = step;
    return step;
  }
}
