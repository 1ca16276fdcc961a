/**
 * Runtime worker entry: a dedicated module Worker started by the leader tab. Hosts the
 * Responses server and answers requests arriving on ports handed to it by `connect`.
 */
import '../protocol/zod-without-eval'; // first: before any schema is created
import * as Comlink from 'comlink';
import type { PageServices, RuntimeControl, RuntimeStatus } from './control-api';
import type { RuntimeStartOptions } from '../protocol/runtime-options';
import { holdLifetimeLock } from '../transport/lifetime-lock';
import { newLockName, RUNTIME_LOCK_PREFIX } from '../transport/lock-names';
import { createLocalServer, type LocalServer } from './composition-root';
import { PeerWatch, serveRequests } from '../transport/serve-requests';
import type { SocketService } from '../transport/serve-sockets';

declare const self: DedicatedWorkerGlobalScope;

const runtimeLock = newLockName(RUNTIME_LOCK_PREFIX);
// Nobody learns the lock's name before it is held (connect awaits this), so a watcher can
// never mistake "not taken yet" for "runtime gone".
const lockHeld = holdLifetimeLock(runtimeLock);
const peers = new PeerWatch();

let status: RuntimeStatus = { state: 'starting', runtimeLock, testModels: false };
let startOnce: Promise<LocalServer> | undefined;
let resolveServer!: (server: Promise<LocalServer>) => void;
// Requests may arrive (over ports) before `start`; they wait for the server here. If it
// fails to start, each request fails with the reason (a 500 from the transport).
const server = new Promise<LocalServer>((resolve) => (resolveServer = resolve));
server.catch(() => {}); // observed per request; not an unhandled rejection
let firstAnswer!: () => void;
const answered = new Promise<void>((resolve) => (firstAnswer = resolve));

async function handle(request: Request): Promise<Response> {
  return (await server).fetch(request);
}

/** WebSocket connections (`ws(s)://…/v1/responses` in a page): the server's socket mode. */
const sockets: SocketService = {
  runtimeLock,
  open: async (url, _headers, peer) => (await server).openSocket(url, peer),
};

const control: RuntimeControl = {
  async start(options: RuntimeStartOptions, page?: PageServices) {
    if (!startOnce) {
      status = { ...status, testModels: options.testModels, ...(options.modelBase ? { modelBase: options.modelBase } : {}) };
      startOnce = lockHeld.then(() =>
        createLocalServer({ ...options, ...(page ? { requestPersist: () => page.requestPersist() } : {}), onAnswer: () => firstAnswer() }),
      );
      resolveServer(startOnce);
      startOnce.then(
        () => (status = { ...status, state: 'ready' }),
        (error: unknown) => {
          status = { ...status, state: 'failed', error: error instanceof Error ? error.message : String(error) };
        },
      );
    }
    await startOnce.catch(() => {}); // a failed start is reported in the status, not thrown
    return status;
  },
  async status() {
    return status;
  },
  answered() {
    return answered;
  },
  async connect(port: MessagePort) {
    await lockHeld;
    serveRequests(port, handle, { peers, sockets, runtimeLock });
    return runtimeLock;
  },
};

Comlink.expose(control);
