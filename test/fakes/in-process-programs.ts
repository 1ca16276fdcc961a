/**
 * Programs run in-process in Node: the real QuickJS core (program-vm.ts) without its worker —
 * what the unit tests use at the `ProgramsPort`. The browser path (worker-programs.ts) is
 * covered by the e2e test.
 */
import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import type { ProgramSandbox, ProgramsPort } from '../../src/ports/tool-ports';
import { ProgramVm } from '../../src/tools/program/program-vm';
import { DEFAULT_PROGRAM_LIMITS, type ProgramLimits } from '../../src/tools/program/program-protocol';

let module: Promise<QuickJSWASMModule> | null = null;

/** `opened`: every sandbox opened, and whether it was closed. */
export function inProcessPrograms(limits: Partial<ProgramLimits> = {}, opened: Array<{ closed: boolean }> = []): ProgramsPort {
  return {
    open(): ProgramSandbox {
      const record = { closed: false };
      opened.push(record);
      let vm: ProgramVm | null = null;
      return {
        async start(code, paths) {
          module ??= newQuickJSWASMModuleFromVariant(variant);
          vm = new ProgramVm(await module, { ...DEFAULT_PROGRAM_LIMITS, ...limits });
          return vm.start(code, paths);
        },
        async answer(answers) {
          if (!vm) return { type: 'failed', error: 'The program was stopped.' };
          return vm.answer(answers);
        },
        close() {
          record.closed = true;
          vm?.dispose();
          vm = null;
        },
      };
    },
  };
}
