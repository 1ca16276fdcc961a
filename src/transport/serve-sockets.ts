/**
 * Runtime side of a WebSocket connection (see `socket-wire.ts`): hands the connection to the
 * server's socket handler and relays frames both ways over the connection's channel. The
 * connection ends when either side closes it or the page that opened it dies (its lifetime
 * lock is released): then the server is told, as a WebSocket server is of a dropped client.
 */
import type { SocketListener, SocketPeer } from '../ports/socket-peer';
import { Codes } from '../shared/error-codes';
import type { PeerWatch } from './serve-requests';
import type { SocketOpenMessage, SocketToPage, SocketToRuntime } from './socket-wire';
import { transportError } from './transport-error';

/** The server's WebSocket entry (`ResponsesServer.openSocket`); throws to refuse the connection. */
export type SocketHandler = (url: string, headers: [string, string][], peer: SocketPeer) => Promise<SocketListener>;

export interface SocketService {
  open: SocketHandler;
  /** This runtime's lifetime lock, told to the page so it notices the runtime going away. */
  runtimeLock: string;
}

export async function serveSocket(message: SocketOpenMessage, service: SocketService, peers: PeerWatch): Promise<void> {
  const { channel } = message;
  const post = (m: SocketToPage) => channel.postMessage(m);
  const gone = new AbortController();
  const untrack = peers.track(message.peerLock, gone);
  let listener: SocketListener | null = null;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    untrack();
    channel.close();
    listener?.closed();
  };
  const peer: SocketPeer = {
    send: (text) => {
      if (!ended) post({ type: 'frame', data: text });
    },
    close: (code, reason) => {
      if (ended) return;
      post({ type: 'close', code, reason });
      end();
    },
  };
  try {
    listener = await service.open(message.url, message.headers, peer);
  } catch (error) {
    post({ type: 'refused', error: transportError(Codes.unknownUrl, error instanceof Error ? error.message : String(error)) });
    end();
    return;
  }
  if (gone.signal.aborted) return end();
  gone.signal.addEventListener('abort', end, { once: true });
  // Frames the page sent before this point waited in the channel: they arrive now, in order.
  channel.onmessage = (event: MessageEvent<SocketToRuntime>) => {
    const m = event.data;
    if (m?.type === 'frame' && (typeof m.data === 'string' || m.data instanceof ArrayBuffer)) listener?.message(m.data);
    else if (m?.type === 'close') {
      // The closing handshake: echo the close, then the connection is over.
      post({ type: 'close', code: m.code, reason: m.reason });
      end();
    }
  };
  post({ type: 'opened', runtimeLock: service.runtimeLock });
}
