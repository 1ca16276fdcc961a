/**
 * JS heap in use by a page and its dedicated workers (the runtime worker among them), after
 * a full garbage collection, through CDP: the page's session auto-attaches to its workers
 * (non-flattened, so Playwright's `CDPSession` reaches them with `Target.sendMessageToTarget`).
 * For leak checks: measure, do the same work many more times, measure again.
 */
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

export interface HeapProbe {
  /** Bytes used by the page's heap and each worker's, after GC. */
  measure(): Promise<{ page: number; workers: Record<string, number> }>;
  detach(): Promise<void>;
}

export async function probeHeap(context: BrowserContext, page: Page): Promise<HeapProbe> {
  const cdp: CDPSession = await context.newCDPSession(page);
  const workers = new Map<string, string>(); // sessionId → worker url
  const pending = new Map<number, (result: unknown) => void>();
  let nextId = 1;
  cdp.on('Target.attachedToTarget', (event: { sessionId: string; targetInfo: { type: string; url: string } }) => {
    if (event.targetInfo.type === 'worker') workers.set(event.sessionId, event.targetInfo.url);
  });
  cdp.on('Target.detachedFromTarget', (event: { sessionId: string }) => void workers.delete(event.sessionId));
  cdp.on('Target.receivedMessageFromTarget', (event: { message: string }) => {
    const message = JSON.parse(event.message) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  const call = (sessionId: string, method: string) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params: {} }) });
    });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  return {
    async measure() {
      await cdp.send('HeapProfiler.collectGarbage');
      const page = ((await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
      const sizes: Record<string, number> = {};
      for (const [sessionId, url] of workers) {
        await call(sessionId, 'HeapProfiler.collectGarbage');
        sizes[url] = ((await call(sessionId, 'Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
      }
      return { page, workers: sizes };
    },
    detach: () => cdp.detach(),
  };
}
