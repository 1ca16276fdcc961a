/**
 * A client end of the server's WebSocket mode for Node tests: `server.openSocket` with a
 * peer that records every frame, and helpers that read a turn (frames up to its terminal
 * event or error frame), as a WebSocket client would.
 */
import type { ResponsesServer } from '../../src/server/responses-server';
import type { SocketListener } from '../../src/ports/socket-peer';

export type Frame = Record<string, unknown> & { type: string };

const TERMINAL = new Set(['response.completed', 'response.failed', 'response.incomplete', 'error']);

export interface TestSocket {
  listener: SocketListener;
  /** Every frame received so far. */
  frames: Frame[];
  /** The close the server sent, once it did. */
  closedWith: { code: number; reason: string } | null;
  send(frame: object | string | ArrayBuffer): void;
  /** Frames of the next turn on `lane` (undefined: the default lane), up to its terminal frame. */
  turn(lane?: string): Promise<Frame[]>;
  /** Sends a frame and reads its turn. */
  create(body: object, lane?: string): Promise<Frame[]>;
  /** Resolves when the server closed the connection. */
  whenClosed(): Promise<{ code: number; reason: string }>;
}

export function openTestSocket(server: ResponsesServer, url = 'ws://local.test/v1/responses'): TestSocket {
  const frames: Frame[] = [];
  const read = new Map<string, number>();
  let wake: Array<() => void> = [];
  const notify = () => {
    const w = wake;
    wake = [];
    w.forEach((f) => f());
  };
  const socket: TestSocket = {
    frames,
    closedWith: null,
    listener: server.openSocket(url, {
      send: (text) => {
        frames.push(JSON.parse(text) as Frame);
        notify();
      },
      close: (code, reason) => {
        socket.closedWith = { code, reason };
        notify();
      },
    }),
    send(frame) {
      socket.listener.message(typeof frame === 'string' || frame instanceof ArrayBuffer ? frame : JSON.stringify(frame));
    },
    async turn(lane) {
      const key = lane ?? '';
      const mine = (f: Frame) => (f.stream_id ?? '') === key;
      for (;;) {
        const start = read.get(key) ?? 0;
        const seen = frames.filter(mine);
        const end = seen.findIndex((f, i) => i >= start && TERMINAL.has(f.type));
        if (end >= 0) {
          read.set(key, end + 1);
          return seen.slice(start, end + 1);
        }
        if (socket.closedWith) throw new Error(`socket closed (${socket.closedWith.code} ${socket.closedWith.reason}) before the turn ended`);
        await new Promise<void>((resolve) => wake.push(resolve));
      }
    },
    create(body, lane) {
      socket.send({ type: 'response.create', ...body, ...(lane ? { stream_id: lane } : {}) });
      return socket.turn(lane);
    },
    async whenClosed() {
      while (!socket.closedWith) await new Promise<void>((resolve) => wake.push(resolve));
      return socket.closedWith;
    },
  };
  return socket;
}
