/**
 * A program's sandbox worker: one per program, started by the runtime worker
 * (worker-programs.ts) and terminated when the program is over, dropped or stopped. The
 * program itself runs in QuickJS (program-vm.ts), which sees nothing of this worker's global
 * scope: only `tools`. The worker answers each `start`/`answer` with the program's next step.
 */
/// <reference lib="webworker" />
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import variant from '@jitl/quickjs-wasmfile-release-sync';
// Served same-origin by the app (and precached by its service worker): programs run offline.
import wasmUrl from '@jitl/quickjs-wasmfile-release-sync/wasm?url';
import { ProgramVm } from './program-vm';
import type { FromWorker, ToWorker } from './program-protocol';

declare const self: DedicatedWorkerGlobalScope;

let module: Promise<QuickJSWASMModule> | null = null;
let vm: ProgramVm | null = null;

const post = (message: FromWorker) => self.postMessage(message);

self.onmessage = async (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  try {
    if (message.type === 'start') {
      module ??= newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmLocation: new URL(wasmUrl, self.location.href).href }));
      vm = new ProgramVm(await module, message.limits);
      post({ type: 'step', step: vm.start(message.code, message.paths) });
    } else if (vm) post({ type: 'step', step: vm.answer(message.answers) });
  } catch (err) {
    // QuickJS itself failed (the wasm did not load, or its own memory is exhausted).
    post({ type: 'step', step: { type: 'failed', error: `The program sandbox failed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 4000) } });
  }
};
