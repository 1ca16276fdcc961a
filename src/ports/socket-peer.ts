/**
 * One WebSocket connection as the server sees it, whatever carries it (a MessagePort from a
 * page of the origin today): the server sends text frames and may close; the transport
 * hands it the client's frames and tells it when the client end is gone.
 */

/** What the server can do to the client end. */
export interface SocketPeer {
  /** Sends one text frame. Frames arrive in the order they were sent. */
  send(text: string): void;
  /** Closes the connection with a WebSocket close code (1000–4999) and a short reason. */
  close(code: number, reason: string): void;
}

/** What the transport tells the server about the client end. */
export interface SocketListener {
  /** A frame from the client: text, or the bytes of a binary frame. */
  message(data: string | ArrayBuffer): void;
  /** The client end is gone (it closed, or its tab died); nothing more can be sent. */
  closed(): void;
}
