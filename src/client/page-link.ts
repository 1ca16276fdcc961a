/**
 * A tab that does not run the runtime gets a runtime port of its own, once per runtime: it
 * asks the service worker to pass a connect message on to the runtime (wire.ts,
 * `ConnectMessage`), and from then on sends its `/v1` requests over that port, page ⇄
 * runtime. Only the connect goes through the service worker, so no request of this tab is a
 * service worker fetch, which Chromium cuts after ~5 minutes however long it waited or
 * streamed.
 */
import { whenLockReleased } from '../transport/lifetime-lock';
import type { RuntimeLink } from '../transport/port-fetch';
import { CONNECT_PAGE_MESSAGE, type ConnectPageMessage } from '../transport/sw-messages';
import { transportError } from '../transport/transport-error';
import type { ConnectedMessage, ConnectMessage, ConnectRefusedMessage, TransportErrorData } from '../transport/wire';
import { Codes } from '../shared/error-codes';

/** How long a connect may take (the service worker waits up to 3 s for the leader's port). */
const CONNECT_TIMEOUT_MS = 10_000;

/** A link, or why there is none (the service worker found no runtime). */
export type PageLinkResult = { link: RuntimeLink } | { refused: TransportErrorData };

export interface PageLinksOptions {
  /** The service worker that controls this page, if any (null: no way to the runtime from here). */
  controller: () => ServiceWorker | null;
  /** This page's lifetime lock (held). */
  peerLock: Promise<string>;
  timeoutMs?: number;
}

/**
 * Returns a function that gives this tab's own link to the runtime, connecting when there
 * is none yet or the last one's runtime is gone; `undefined` when no service worker
 * controls the page. Concurrent callers share one connect.
 */
export function pageLinks({ controller, peerLock, timeoutMs = CONNECT_TIMEOUT_MS }: PageLinksOptions): () => Promise<PageLinkResult | undefined> {
  let current: Promise<PageLinkResult> | undefined;
  return async () => {
    if (current) {
      const last = await current;
      if ('link' in last && !last.link.gone.aborted) return last;
    }
    const worker = controller();
    if (!worker) return undefined;
    const attempt = connect(worker, await peerLock, timeoutMs);
    current = attempt;
    const result = await attempt;
    // A refusal is an answer for this call only: the next one asks again.
    if ('refused' in result && current === attempt) current = undefined;
    return result;
  };
}

function connect(worker: ServiceWorker, peerLock: string, timeoutMs: number): Promise<PageLinkResult> {
  const { port1: mine, port2: theirs } = new MessageChannel();
  const message: ConnectPageMessage = { type: CONNECT_PAGE_MESSAGE, connect: { type: 'connect', port: theirs, peerLock } satisfies ConnectMessage };
  return new Promise<PageLinkResult>((resolve) => {
    const timer = setTimeout(() => {
      mine.close();
      resolve({ refused: transportError(Codes.runtimeUnavailable, 'The local runtime did not answer. Open the app in a tab to start it, or reload this one.') });
    }, timeoutMs);
    mine.onmessage = (event: MessageEvent<ConnectedMessage | ConnectRefusedMessage>) => {
      clearTimeout(timer);
      const m = event.data;
      if (m?.type === 'connected' && typeof m.runtimeLock === 'string') {
        mine.onmessage = null;
        const gone = new AbortController();
        void whenLockReleased(m.runtimeLock).then(() => {
          gone.abort();
          mine.close();
        });
        resolve({ link: { port: mine, peerLock, gone: gone.signal } });
      } else {
        mine.close();
        resolve({ refused: m?.type === 'refused' ? m.error : transportError(Codes.runtimeError, 'Unexpected answer to a connect.') });
      }
    };
    worker.postMessage(message, [theirs]);
  });
}
