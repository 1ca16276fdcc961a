import type { RuntimeControl } from '../runtime/control-api';
import { holdLifetimeLock } from '../transport/lifetime-lock';
import { LEADER_LOCK, newLockName, PEER_LOCK_PREFIX } from '../transport/lock-names';
import { isPortWanted } from '../transport/sw-messages';
import type * as Comlink from 'comlink';
import { resolveModelBase, storedModelBase } from './model-base';
import { NO_TOOLS, type RuntimeOptions, type RuntimeStartOptions } from '../protocol/runtime-options';
import { storedRuntimeOptions } from './stored-runtime-options';
import { registerServiceWorker } from './register-service-worker';
import { RuntimeHost } from './runtime-host';
import { createRuntimeFetch } from './runtime-fetch';
import { pageLinks } from './page-link';
import { routeApiFetch } from './route-api-fetch';
import { waitUntilAnswering } from './wait-until-answering';
import { runtimeWorkerFactory } from './runtime-worker-url';
import { setCurrentRuntime } from './local-fetch';
import { setSocketOpener } from './local-websocket';
import { createSocketOpener } from './socket-opener';
import { keepOfflineFiles, type OfflineFilesWatch } from './offline-files';

/**
 * `startLocalRuntime`'s options: the runtime's own (`RuntimeOptions`, passed whole to the
 * runtime this tab may start; each overrides the origin's stored option of that name) and
 * how this page reaches it.
 */
export interface StartLocalRuntimeOptions extends RuntimeOptions {
  /**
   * Where the package's built files (`runtime-worker.js`, its chunks and wasm, `pyodide/`)
   * are hosted when not by your bundler: a CDN copy of the package's `dist/` folder, e.g.
   * `https://cdn.example/local-responses@0.2.0/dist/`. It must answer with CORS headers.
   * Default: next to this module (`new URL(…, import.meta.url)`, which Vite and webpack 5 copy).
   */
  assetBase?: string;
  /**
   * URL of the service worker script (root scope): the package's ready `sw.js`, or your own
   * that calls `handleLocalResponsesFetch` (`local-responses/sw`). Default `/sw.js`.
   * `false`: register none (your app registers its own); `/v1` then works through
   * `localFetch` until a service worker controls the page.
   */
  serviceWorkerUrl?: string | false;
  /**
   * Send this page's `fetch` of same-origin `/v1/*` straight to the runtime over a
   * MessagePort (in the tab that runs it, and through a port of its own, connected once, in
   * every other tab), never through the service worker: Chromium ends a service worker's
   * fetch after ~5 minutes, which would cut a request that waits behind other work or
   * streams for longer. It replaces `globalThis.fetch` with one that routes those URLs and
   * hands every other request to the browser's own `fetch` unchanged. Other contexts (workers,
   * iframes, `XMLHttpRequest`, `EventSource`) still go through the service worker. Default
   * `true`; `false` leaves `globalThis.fetch` alone (`runtime.fetch` and `localFetch` still
   * route `/v1` directly).
   */
  directFetch?: boolean;
  /** Give up waiting for `/v1/models` after this long. Default 30 s. */
  timeoutMs?: number;
  /** Starts the runtime worker (tests and embedders may substitute). */
  createWorker?: () => Worker;
}

export interface LocalRuntime {
  /**
   * `fetch` for `/v1`: straight to the runtime over a MessagePort — this tab's own port in
   * the leader tab, one connected through the service worker in any other — never as a
   * service worker fetch; every other URL goes to the network.
   */
  readonly fetch: typeof fetch;
  /** Whether this tab currently runs the runtime. */
  isLeader(): boolean;
  /** Control API of this tab's runtime worker; `undefined` unless leader. */
  control(): Comlink.Remote<RuntimeControl> | undefined;
  /** Whether `/v1` is reachable through the service worker in this tab. */
  readonly serviceWorker: boolean;
  /**
   * The files the app started without (Python, the CPU engine): the service worker fetches
   * them once the runtime has given its first answer, and reports which are kept offline yet.
   */
  readonly offlineFiles: OfflineFilesWatch;
}

/**
 * Starts or joins the origin's local runtime and resolves once `GET /v1/models` answers.
 * Call it once per page.
 *
 * Registers the service worker, then queues for the leader Web Lock for the tab's life:
 * the holder runs the runtime worker and hands the SW ports to it; when it closes, the
 * next tab in the queue takes over. Other tabs reach `/v1` through the SW.
 *
 * @example
 * const runtime = await startLocalRuntime();
 * const client = new OpenAI({ baseURL: location.origin + '/v1', apiKey: 'local',
 *   dangerouslyAllowBrowser: true, fetch: runtime.fetch });
 */
export async function startLocalRuntime(options: StartLocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const { assetBase, serviceWorkerUrl, timeoutMs, createWorker, directFetch, ...given } = options;
  const container = 'serviceWorker' in navigator ? navigator.serviceWorker : undefined;
  const peerLockName = newLockName(PEER_LOCK_PREFIX);
  const peerLock = holdLifetimeLock(peerLockName).then(() => peerLockName);
  let host: RuntimeHost | undefined;
  // The first answer of the runtime this tab runs (now or after taking over from another tab).
  let firstAnswer!: () => void;
  const answered = new Promise<void>((resolve) => (firstAnswer = resolve));

  // This tab's own port in the leader tab; elsewhere one connected through the service worker.
  const otherTabLinks = pageLinks({ controller: () => container?.controller ?? null, peerLock });
  const networkFetch = globalThis.fetch.bind(globalThis);
  const runtimeFetch = createRuntimeFetch({
    link: async () => (host ? { link: await host.link() } : otherTabLinks()),
    origin: location.origin,
    fallback: networkFetch,
  });
  // Before any await: requests the page sends while the runtime starts are routed too.
  const nativeFetch = directFetch === false ? networkFetch : routeApiFetch(runtimeFetch).bind(globalThis);

  // Listen before registering: a restarted SW may ask for a port at any time.
  container?.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (isPortWanted(event.data) && host && event.source instanceof ServiceWorker) {
      void host.offerPortTo(event.source);
    }
  });
  container?.startMessages();
  const swUrl = serviceWorkerUrl ?? '/sw.js';
  if (container && swUrl !== false) await registerServiceWorker(container, swUrl);

  void navigator.locks.request(LEADER_LOCK, () => {
    // Code and storage only: whatever the page URL says configures nothing here.
    const modelBase = resolveModelBase({ option: given.modelBase, pageUrl: location.href, stored: storedModelBase() });
    // What code gives wins, option by option, over the origin's stored options.
    const runtime: RuntimeStartOptions = {
      // Opt-in: no tool unless the code or the origin's stored options name it.
      tools: NO_TOOLS,
      ...storedRuntimeOptions(),
      ...definedOnly(given),
      testModels: given.testModels ?? false,
      ...(modelBase ? { modelBase } : {}),
    };
    host = new RuntimeHost({ runtime, createWorker: createWorker ?? runtimeWorkerFactory(assetBase), peerLock });
    void host.control.answered().then(firstAnswer, () => {});
    if (container?.controller) void host.offerPortTo(container.controller);
    // A new SW version took over: it starts without a port.
    container?.addEventListener('controllerchange', () => {
      if (container.controller) void host?.offerPortTo(container.controller);
    });
    // Held until the tab closes; the browser then grants it to the next waiting tab.
    return new Promise<never>(() => {});
  });

  // Through the SW when we have one: that is the path every other client uses.
  const answering = waitUntilAnswering(container?.controller ? nativeFetch : runtimeFetch, {
    timeoutMs: timeoutMs ?? 30_000,
  }).then(
    (): LocalRuntime => ({
      fetch: runtimeFetch,
      isLeader: () => host !== undefined,
      control: () => host?.control,
      serviceWorker: container?.controller != null,
      // Asked for by the tab that runs the runtime, after its first answer: the deferred
      // files must compete neither with the start nor with what that answer needs.
      offlineFiles: keepOfflineFiles(container, answered),
    }),
  );
  setCurrentRuntime(answering);
  // WebSocket mode (LocalWebSocket): connections wait, like localFetch, for /v1 to answer.
  const openSocket = createSocketOpener({ link: async () => host?.link(), controller: () => container?.controller ?? null, peerLock });
  setSocketOpener(answering.then(() => openSocket));
  return answering;
}

/** The options given a value (an option set to `undefined` leaves the stored one in place). */
function definedOnly(options: RuntimeOptions): RuntimeOptions {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as RuntimeOptions;
}
