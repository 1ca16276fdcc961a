/**
 * A slow network for one page *and* the workers it starts, through CDP, with a byte count.
 *
 * `Network.emulateNetworkConditions` applies per target, and the service worker is the one
 * that downloads the precache, so throttling the page alone would measure nothing. The
 * page's CDP session auto-attaches (paused at start) to the service worker and dedicated
 * workers; each is throttled before it runs. Non-flattened sessions, so Playwright's
 * `CDPSession` can reach them (`Target.sendMessageToTarget`). Dedicated workers cannot be
 * throttled (see ../shared/TESTING.md); their same-origin requests go through the service
 * worker anyway.
 */
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

export interface ThrottledNetwork {
  /** Bytes received from the network so far (encoded, headers included), by every attached target. */
  bytes(): number;
  /** Finished network requests: URL, bytes and when (ms since `start`), in order. */
  readonly requests: { url: string; bytes: number; atMs: number; target: string }[];
  /** `performance.now()`-like clock of this side (ms since the network was set up). */
  now(): number;
}

export interface ThrottleOptions {
  /** Bits per second, both directions. */
  bitsPerSecond: number;
  /** Round-trip latency added to each request. Default 20 ms. */
  latencyMs?: number;
}

interface CdpEvent {
  method?: string;
  params?: Record<string, unknown>;
  id?: number;
}

/** Throttles `page` (before its first navigation) and every worker it gets. */
export async function throttleNetwork(context: BrowserContext, page: Page, options: ThrottleOptions): Promise<ThrottledNetwork> {
  const started = performance.now();
  const conditions = {
    offline: false,
    latency: options.latencyMs ?? 20,
    downloadThroughput: options.bitsPerSecond / 8,
    uploadThroughput: options.bitsPerSecond / 8,
  };
  const requests: ThrottledNetwork['requests'] = [];
  const urls = new Map<string, { url: string; fromServiceWorker: boolean }>();
  const record = (target: string, event: CdpEvent) => {
    const params = event.params ?? {};
    const key = `${target}:${String(params.requestId)}`;
    if (event.method === 'Network.requestWillBeSent') urls.set(key, { url: String((params.request as { url: string }).url), fromServiceWorker: false });
    if (event.method === 'Network.responseReceived') {
      const known = urls.get(key);
      if (known) known.fromServiceWorker = Boolean((params.response as { fromServiceWorker?: boolean }).fromServiceWorker);
    }
    if (event.method === 'Network.loadingFinished') {
      const known = urls.get(key);
      // Answered by the service worker (from its cache), or never on the network (blob:,
      // data:): no network bytes, whatever CDP says.
      if (!known || known.fromServiceWorker || !/^https?:/.test(known.url)) return;
      requests.push({ url: known.url, bytes: Number(params.encodedDataLength ?? 0), atMs: performance.now() - started, target });
    }
  };

  const cdp: CDPSession = await context.newCDPSession(page);
  let nextId = 1;
  const sendTo = (sessionId: string, method: string, params: object = {}) =>
    cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: nextId++, method, params }) }).catch(() => {});
  cdp.on('Target.attachedToTarget', (event: { sessionId: string; targetInfo: { type: string }; waitingForDebugger: boolean }) => {
    const { sessionId } = event;
    void (async () => {
      await sendTo(sessionId, 'Network.enable');
      await sendTo(sessionId, 'Network.emulateNetworkConditions', conditions);
      // The worker's own workers (none today) would be attached the same way.
      await sendTo(sessionId, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
      await sendTo(sessionId, 'Runtime.runIfWaitingForDebugger');
    })();
  });
  cdp.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    const message = JSON.parse(event.message) as CdpEvent;
    if (message.method) record(event.sessionId, message);
  });
  for (const method of ['Network.requestWillBeSent', 'Network.responseReceived', 'Network.loadingFinished'] as const) {
    cdp.on(method, (params: Record<string, unknown>) => record('page', { method, params }));
  }
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', conditions);
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
  return {
    bytes: () => requests.reduce((n, r) => n + r.bytes, 0),
    requests,
    now: () => performance.now() - started,
  };
}
