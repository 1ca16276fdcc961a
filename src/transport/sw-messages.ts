/**
 * The messages pages and the service worker exchange with `postMessage` (outside any one
 * request): one name per message, spelled here only. Both sides are this origin's own
 * code; the service worker still checks a message's shape before it acts on it, because
 * `message` events carry whatever a page of the origin posts.
 */
import type { SocketOpenMessage } from './socket-wire';
import type { ConnectMessage } from './wire';

/** Leader page → service worker: here is a port to the runtime. */
export interface RuntimePortMessage {
  type: 'local-responses/runtime-port';
  port: MessagePort;
  /** Web Lock the runtime worker holds for its life; granted to others once it is gone. */
  runtimeLock: string;
}

/** Service worker → pages: I have no runtime port; the leader, please send one. */
export interface PortWantedMessage {
  type: 'local-responses/port-wanted';
}

/** Page → service worker: a hard-reloaded page is not controlled until the SW claims it again. */
export interface ClaimMessage {
  type: 'local-responses/claim';
}

/** Page → waiting service worker: the person clicked "Reload" on the update banner. */
export interface SkipWaitingMessage {
  type: 'local-responses/skip-waiting';
}

/** Page → service worker: keep the deferred files offline (fetch what is missing) and say how far that is. */
export interface CacheOfflineFilesMessage {
  type: 'local-responses/cache-offline-files';
}

/**
 * Page → service worker: open a WebSocket connection to the runtime for me (a tab that does
 * not run it). The service worker passes `open` on over its runtime port, unread; the
 * connection's frames never go through the service worker.
 */
export interface OpenSocketMessage {
  type: 'local-responses/open-socket';
  open: SocketOpenMessage;
}

/**
 * Page → service worker: pass `connect` on over your runtime port, so that this page (which
 * does not run the runtime) gets a port of its own and its `/v1` requests bypass you.
 */
export interface ConnectPageMessage {
  type: 'local-responses/connect';
  connect: ConnectMessage;
}

/** Service worker → pages: where keeping the deferred files offline stands (`status` is an `OfflineFilesStatus`). */
export interface OfflineFilesMessage {
  type: 'local-responses/offline-files';
  status: unknown;
}

export type PageToSwMessage = RuntimePortMessage | ClaimMessage | SkipWaitingMessage | CacheOfflineFilesMessage | OpenSocketMessage | ConnectPageMessage;

export const RUNTIME_PORT_MESSAGE: RuntimePortMessage['type'] = 'local-responses/runtime-port';
export const PORT_WANTED_MESSAGE: PortWantedMessage['type'] = 'local-responses/port-wanted';
export const CLAIM_MESSAGE: ClaimMessage['type'] = 'local-responses/claim';
export const SKIP_WAITING_MESSAGE: SkipWaitingMessage['type'] = 'local-responses/skip-waiting';
export const CACHE_OFFLINE_FILES_MESSAGE: CacheOfflineFilesMessage['type'] = 'local-responses/cache-offline-files';
export const OFFLINE_FILES_MESSAGE: OfflineFilesMessage['type'] = 'local-responses/offline-files';
export const OPEN_SOCKET_MESSAGE: OpenSocketMessage['type'] = 'local-responses/open-socket';
export const CONNECT_PAGE_MESSAGE: ConnectPageMessage['type'] = 'local-responses/connect';

/** What a page posted to the service worker, or null when it is none of ours (or malformed). */
export function readPageMessage(data: unknown): PageToSwMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as Record<string, unknown>;
  switch (message.type) {
    case CLAIM_MESSAGE:
    case SKIP_WAITING_MESSAGE:
    case CACHE_OFFLINE_FILES_MESSAGE:
      return { type: message.type };
    case RUNTIME_PORT_MESSAGE:
      if (!(message.port instanceof MessagePort) || typeof message.runtimeLock !== 'string') return null;
      return { type: RUNTIME_PORT_MESSAGE, port: message.port, runtimeLock: message.runtimeLock };
    case OPEN_SOCKET_MESSAGE: {
      const open = message.open as Partial<SocketOpenMessage> | null;
      if (typeof open !== 'object' || open === null || !(open.channel instanceof MessagePort)) return null;
      if (typeof open.url !== 'string' || typeof open.peerLock !== 'string' || !isHeaderList(open.headers)) return null;
      return { type: OPEN_SOCKET_MESSAGE, open: { type: 'socket', url: open.url, headers: open.headers, peerLock: open.peerLock, channel: open.channel } };
    }
    case CONNECT_PAGE_MESSAGE: {
      const connect = message.connect as Partial<ConnectMessage> | null;
      if (typeof connect !== 'object' || connect === null || !(connect.port instanceof MessagePort) || typeof connect.peerLock !== 'string') return null;
      return { type: CONNECT_PAGE_MESSAGE, connect: { type: 'connect', port: connect.port, peerLock: connect.peerLock } };
    }
    default:
      return null;
  }
}

function isHeaderList(value: unknown): value is [string, string][] {
  return Array.isArray(value) && value.every((pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string' && typeof pair[1] === 'string');
}

/** Whether a message from the service worker asks this page for a runtime port. */
export function isPortWanted(data: unknown): data is PortWantedMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === PORT_WANTED_MESSAGE;
}

/** The status in a message from the service worker about the deferred files, or null when the message is another one. */
export function offlineFilesStatusIn(data: unknown): unknown {
  if (typeof data !== 'object' || data === null || (data as { type?: unknown }).type !== OFFLINE_FILES_MESSAGE) return null;
  return (data as { status?: unknown }).status ?? null;
}
