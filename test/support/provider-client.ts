/**
 * A Responses server with remote providers on (the real remote engine, its requests going
 * over real HTTP to a fake upstream on 127.0.0.1) and the `openai` SDK pointed at it, plus
 * helpers to add providers through `/v1/local/providers` as the app does.
 */
import { providerConnector } from '../../src/engine/remote';
import type { ProviderOptions } from '../../src/protocol/runtime-options';
import type { ToolPorts } from '../../src/ports/tool-ports';
import type { ProviderStore } from '../../src/ports/providers';
import type { ImageFetcher } from '../../src/ports/image-fetcher';
import { localClient, type LocalClient, type LocalClientOptions } from './local-client';

export const APP_ORIGIN = 'http://local.test';

export interface ProviderClientOptions {
  /** Silence before the engine gives up (the real default is 120 s). */
  idleTimeoutMs?: number;
  maxStreamBytes?: number;
  initial?: ProviderOptions[];
  store?: ProviderStore;
  tools?: ToolPorts;
  dbName?: string;
  /** Files and vector stores (see LocalClientOptions.files). */
  files?: LocalClientOptions['files'];
  /** Fetches the https: images requests name (ports/image-fetcher.ts). */
  imageFetcher?: ImageFetcher;
}

export function providerClient(options: ProviderClientOptions = {}): Promise<LocalClient> {
  return localClient({
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.dbName ? { dbName: options.dbName } : {}),
    ...(options.files ? { files: options.files } : {}),
    server: {
      providers: {
        connect: providerConnector({
          appOrigin: APP_ORIGIN,
          idleTimeoutMs: options.idleTimeoutMs ?? 2000,
          ...(options.maxStreamBytes ? { maxStreamBytes: options.maxStreamBytes } : {}),
        }),
        appOrigin: APP_ORIGIN,
        ...(options.store ? { store: options.store } : {}),
        ...(options.initial ? { initial: options.initial } : {}),
      },
      ...(options.imageFetcher ? { imageFetcher: options.imageFetcher } : {}),
    },
  });
}

/** `POST /v1/local/providers`; the answer's JSON (an error body when it failed). */
export async function addProvider(local: LocalClient, body: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await local.http('/v1/local/providers', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
