/**
 * A fresh Responses server on fake-indexeddb and the real `openai` SDK pointed at it.
 * The SDK's `fetch` calls the server function directly: no network, same HTTP semantics.
 */
import 'fake-indexeddb/auto';
import OpenAI from 'openai';
import { qwenFormat } from '../../src/chat/qwen-format';
import { ScriptedEngine } from '../../src/engine/scripted-engine';
import { createResponsesServer, type ResponsesServer } from '../../src/server/responses-server';
import { openIdbStore } from '../../src/store/idb-store';
import type { ResponseStore } from '../../src/store/response-store';

let counter = 0;

export interface LocalClient {
  client: OpenAI;
  server: ResponsesServer;
  store: ResponseStore;
  dbName: string;
  /** Raw HTTP against the server (for malformed requests the SDK would not send). */
  http(path: string, init?: RequestInit): Promise<Response>;
}

export async function localClient(options: { dbName?: string } = {}): Promise<LocalClient> {
  const dbName = options.dbName ?? `test-${process.pid}-${Date.now()}-${counter++}`;
  const store = await openIdbStore({ name: dbName });
  const server = await createResponsesServer({ store, engines: [new ScriptedEngine()], formats: { qwen: qwenFormat }, flushMs: 5 });
  const fetch = (url: string | URL | Request, init?: RequestInit) => server.fetch(new Request(url, init));
  const client = new OpenAI({ apiKey: 'local', baseURL: 'http://local.test/v1', maxRetries: 0, fetch });
  return { client, server, store, dbName, http: (path, init) => fetch(`http://local.test${path}`, init) };
}

/** The user input that makes `test-scripted` play `script`. */
export function script(output: string | string[], extra: { delay_ms?: number; fail_after?: number; chunk?: number } = {}): string {
  return JSON.stringify({ script: output, ...extra });
}
