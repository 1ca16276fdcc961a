/**
 * The wire of a WebSocket connection between a page and the runtime worker. Types only:
 * everything here crosses `postMessage`.
 *
 * A page opens a connection by posting a {@link SocketOpenMessage} on a runtime port —
 * its own link in the leader tab, or the service worker's, which passes it on unread (the
 * service worker never sees a frame). The message carries one end of a fresh
 * MessageChannel (`channel`): every frame of the connection travels on it, straight
 * between the page and the runtime, in order. The runtime answers on it with
 * {@link SocketOpenedMessage} (or {@link SocketRefusedMessage}), then frames; either side
 * ends with {@link SocketCloseMessage}.
 */
import type { TransportErrorData } from './wire';

export interface SocketOpenMessage {
  type: 'socket';
  /** The `ws(s)://` URL the page's script opened. */
  url: string;
  /** Headers the script gave (`new WebSocket(url, {headers})`): passed on, as an HTTP upgrade's. */
  headers: [string, string][];
  /**
   * The page's lifetime lock: when it is released (the tab closed) the connection ends and
   * its running turns stop, as after an HTTP client's disconnect.
   */
  peerLock: string;
  channel: MessagePort;
}

/** Runtime → page: the connection is open. */
export interface SocketOpenedMessage {
  type: 'opened';
  /** The runtime's lifetime lock: when it is released the runtime is gone, and so is the connection. */
  runtimeLock: string;
}

/** Runtime (or the service worker passing the open on) → page: no connection (as a failed WebSocket handshake). */
export interface SocketRefusedMessage {
  type: 'refused';
  error: TransportErrorData;
}

/** Either way: one text frame, or the bytes of a binary one. */
export interface SocketFrameMessage {
  type: 'frame';
  data: string | ArrayBuffer;
}

/** Either way: the sender closed the connection (the other side answers with its own close once). */
export interface SocketCloseMessage {
  type: 'close';
  code: number;
  reason: string;
}

export type SocketToPage = SocketOpenedMessage | SocketRefusedMessage | SocketFrameMessage | SocketCloseMessage;
export type SocketToRuntime = SocketFrameMessage | SocketCloseMessage;
