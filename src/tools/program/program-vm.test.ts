import { beforeAll, describe, expect, test } from 'vitest';
import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { ProgramVm } from './program-vm';
import { DEFAULT_PROGRAM_LIMITS, type ProgramLimits, type ProgramStep } from './program-protocol';

let module: QuickJSWASMModule;
beforeAll(async () => {
  module = await newQuickJSWASMModuleFromVariant(variant);
});

function run(code: string, paths: string[][] = [], limits: Partial<ProgramLimits> = {}): { vm: ProgramVm; step: ProgramStep } {
  const vm = new ProgramVm(module, { ...DEFAULT_PROGRAM_LIMITS, ...limits });
  return { vm, step: vm.start(code, paths) };
}

describe('a program in QuickJS', () => {
  test('returns its value as JSON', () => {
    expect(run('return {a: 1, b: [2, "x"]};').step).toEqual({ type: 'done', result: '{"a":1,"b":[2,"x"]}' });
    expect(run('const x = 2;').step).toEqual({ type: 'done', result: 'null' });
  });

  test('calls tools and resumes with their answers, across several steps', () => {
    const { vm, step } = run('const a = await tools.add({x: 1, y: 2}); const [b, c] = await Promise.all([tools.ns.twice({n: a}), tools.ns.twice({n: 5})]); return a + "," + b + "," + c;', [['add'], ['ns', 'twice']]);
    expect(step).toEqual({ type: 'calls', calls: [{ id: 1, path: ['add'], arguments: '{"x":1,"y":2}' }] });
    const second = vm.answer([{ id: 1, ok: true, output: '3' }]);
    expect(second).toEqual({ type: 'calls', calls: [{ id: 2, path: ['ns', 'twice'], arguments: '{"n":"3"}' }, { id: 3, path: ['ns', 'twice'], arguments: '{"n":5}' }] });
    expect(vm.answer([{ id: 3, ok: true, output: '10' }])).toEqual({ type: 'calls', calls: [] });
    expect(vm.answer([{ id: 2, ok: true, output: '6' }])).toEqual({ type: 'done', result: '"3,6,10"' });
    vm.dispose();
  });

  test('console.log is there, and goes nowhere', () => {
    expect(run('console.log("hi"); console.error(1); return "ok";').step).toEqual({ type: 'done', result: '"ok"' });
  });

  test('a failed tool call rejects in the program, which may catch it', () => {
    const { vm } = run('try { await tools.f({}); } catch (e) { return e.name + ": " + e.message; }', [['f']]);
    expect(vm.answer([{ id: 1, ok: false, error: 'nope' }])).toEqual({ type: 'done', result: '"ToolError: nope"' });
  });

  test('a throw or a syntax error ends it with the error and its line', () => {
    expect(run('\nthrow new TypeError("bad");').step).toEqual({ type: 'failed', error: 'TypeError: bad (line 2)' });
    expect(run('return (;').step).toMatchObject({ type: 'failed', error: expect.stringContaining('SyntaxError') });
  });

  test('has no host API: no network, storage, timers, modules or page', () => {
    const probe = `return ["fetch","XMLHttpRequest","importScripts","indexedDB","caches","localStorage","document","window","self","navigator","setTimeout","WebSocket","Worker","postMessage","require","process"].filter((n) => typeof globalThis[n] !== "undefined");`;
    expect(run(probe).step).toEqual({ type: 'done', result: '[]' });
    expect(run('try { await import("data:text/javascript,export default 1"); return "imported"; } catch (e) { return "refused: " + e.message; }').step).toMatchObject({
      type: 'done',
      result: expect.stringMatching(/^"refused/),
    });
  });

  test('a CPU loop ends with the time limit, even one that catches', () => {
    const started = Date.now();
    expect(run('for (;;) { try { for (;;) {} } catch {} }', [], { cpuMs: 300 }).step).toEqual({ type: 'failed', error: expect.stringMatching(/CPU time limit/) });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('a memory bomb ends with the memory limit', () => {
    expect(run('const a = []; for (let i = 0; ; i++) a.push({ i });', [], { memoryBytes: 16 * 1024 * 1024 }).step).toEqual({ type: 'failed', error: expect.stringMatching(/out of memory/) });
  });

  test('a promise nothing settles ends the program rather than waiting forever', () => {
    expect(run('await new Promise(() => {});').step).toMatchObject({ type: 'failed', error: expect.stringMatching(/never happen/) });
  });
});
