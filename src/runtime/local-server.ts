/**
 * Wires the concrete pieces of a local runtime: the IndexedDB store, the engines and the
 * Responses server. Called by the runtime worker entry (and by tests that want the whole
 * server in one call).
 */
import { chatFormats } from '../chat/chat-formats';
import type { Engine } from '../engine/engine';
import { ScriptedEngine } from '../engine/scripted-engine';
import { createResponsesServer, type ResponsesServer } from '../server/responses-server';
import { openIdbStore } from '../store/idb-store';

export interface LocalServerOptions {
  /** Register the `test-scripted` model (always in Vitest/dev; in production only with `?test-models`). */
  testModels: boolean;
  /** IndexedDB database name (tests use a fresh one). */
  dbName?: string;
}

export type LocalServer = ResponsesServer;

export async function createLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const store = await openIdbStore(options.dbName ? { name: options.dbName } : {});
  const engines: Engine[] = options.testModels ? [new ScriptedEngine()] : [];
  return createResponsesServer({ store, engines, formats: chatFormats });
}
