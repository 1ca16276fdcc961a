/**
 * How a page reaches the runtime with a WebSocket connection (wire: transport/socket-wire.ts):
 * in the tab that runs it, over this tab's own runtime port; in any other tab, through the
 * service worker, which passes the connection on to the runtime. Either way the frames then
 * travel on the connection's own channel, page ⇄ runtime.
 */
import { Codes } from '../shared/error-codes';
import type { RuntimeLink } from '../transport/port-fetch';
import type { SocketOpenMessage, SocketRefusedMessage } from '../transport/socket-wire';
import { OPEN_SOCKET_MESSAGE, type OpenSocketMessage } from '../transport/sw-messages';
import { transportError } from '../transport/transport-error';

/** Opens a connection to `url`; returns the page's end of its channel (its first message says whether it opened). */
export type SocketOpener = (url: string, headers: [string, string][]) => Promise<MessagePort>;

export interface SocketOpenerOptions {
  /** This tab's own link to the runtime; `undefined` when another tab runs it. */
  link: () => Promise<RuntimeLink | undefined>;
  /** The service worker that controls this page, if any. */
  controller: () => ServiceWorker | null;
  /** This page's lifetime lock (held). */
  peerLock: Promise<string>;
}

export function createSocketOpener({ link, controller, peerLock }: SocketOpenerOptions): SocketOpener {
  return async (url, headers) => {
    const { port1: mine, port2: theirs } = new MessageChannel();
    const open: SocketOpenMessage = { type: 'socket', url, headers, peerLock: await peerLock, channel: theirs };
    const direct = await link();
    const worker = controller();
    if (direct) direct.port.postMessage(open, [theirs]);
    else if (worker) worker.postMessage({ type: OPEN_SOCKET_MESSAGE, open } satisfies OpenSocketMessage, [theirs]);
    else {
      // No way to the runtime from here: refused, as a handshake with no server behind it.
      const refused: SocketRefusedMessage = {
        type: 'refused',
        error: transportError(Codes.runtimeUnavailable, 'Another tab runs the local runtime and this browser offers no service worker to reach it.'),
      };
      theirs.postMessage(refused);
    }
    return mine;
  };
}
