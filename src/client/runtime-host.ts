import * as Comlink from 'comlink';
import type { PageServices, RuntimeControl, RuntimeStatus } from '../runtime/control-api';
import { whenLockReleased } from '../transport/lifetime-lock';
import type { RuntimeLink } from '../transport/port-fetch';
import { RUNTIME_PORT_MESSAGE, type RuntimePortMessage } from '../transport/sw-messages';
import { prepareRuntimeTools } from '../tools/page-tools';
import type { CpuEngineAssets, CpuEngineOptions, FileSearchOptions, ProviderOptions, RetentionPolicy, RouteOptions, ToolsConfig } from '../protocol/runtime-options';
import { requestPersist } from './request-persist';

export interface RuntimeHostOptions {
  testModels: boolean;
  /** Serve GGUF models on the CPU too (see `StartLocalRuntimeOptions.cpuEngine`). */
  cpuEngine?: CpuEngineAssets;
  /** Absolute URL of a model mirror (see `resolveModelBase`). */
  modelBase?: string;
  /** Builtin tools; the page creates the Python sandbox frame for them. */
  tools?: ToolsConfig;
  /** How long stored responses are kept (see `StartLocalRuntimeOptions.retention`). */
  retention?: Partial<RetentionPolicy>;
  /** The CPU engine's threads (see `StartLocalRuntimeOptions.cpu`). */
  cpu?: CpuEngineOptions;
  /** Remote providers (see `StartLocalRuntimeOptions.providers`). */
  providers?: ProviderOptions[];
  /** Routes (see `StartLocalRuntimeOptions.routes`). */
  routes?: RouteOptions[];
  /** File search (see `StartLocalRuntimeOptions.fileSearch`). */
  fileSearch?: FileSearchOptions;
  createWorker: () => Worker;
  /** This page's lifetime lock name, once held. */
  peerLock: Promise<string>;
}

/** What only a window can do, done for the runtime worker this page starts. */
const pageServices: PageServices = {
  // Chrome decides without asking (engagement, installed app); Firefox asks the person, and a
  // download does not wait for the answer (request-persist.ts).
  requestPersist: () => requestPersist(navigator.storage),
};

/**
 * The leader tab's handle on its runtime worker: starts it, and mints ports to it — one
 * for this page's direct `fetch`, one for the service worker whenever it asks.
 */
export class RuntimeHost {
  readonly control: Comlink.Remote<RuntimeControl>;
  /** Settles when the server started (or failed to; see `state`). */
  readonly started: Promise<RuntimeStatus>;
  readonly #link: Promise<RuntimeLink>;

  constructor(private readonly options: RuntimeHostOptions) {
    this.control = Comlink.wrap<RuntimeControl>(options.createWorker());
    const tools = prepareRuntimeTools(options.tools);
    this.started = this.control.start(
      Comlink.transfer(
        {
          testModels: options.testModels,
          ...(options.cpuEngine ? { cpuEngine: { wasmUrl: new URL(options.cpuEngine.wasmUrl, location.href).href } } : {}),
          ...(options.modelBase ? { modelBase: options.modelBase } : {}),
          tools: tools.options,
          ...(options.retention ? { retention: options.retention } : {}),
          ...(options.cpu ? { cpu: options.cpu } : {}),
          ...(options.providers ? { providers: options.providers } : {}),
          ...(options.routes ? { routes: options.routes } : {}),
          ...(options.fileSearch ? { fileSearch: options.fileSearch } : {}),
        },
        tools.transfer,
      ),
      Comlink.proxy(pageServices),
    );
    this.#link = this.#ownLink();
  }

  /** A link for this page's own direct requests (no service worker involved). */
  link(): Promise<RuntimeLink> {
    return this.#link;
  }

  /** Hands a fresh runtime port to the service worker `target`. */
  async offerPortTo(target: ServiceWorker): Promise<void> {
    const { port, runtimeLock } = await this.#newPort();
    const message: RuntimePortMessage = {
      type: RUNTIME_PORT_MESSAGE,
      port,
      runtimeLock,
    };
    target.postMessage(message, [port]);
  }

  async #newPort(): Promise<{ port: MessagePort; runtimeLock: string }> {
    const { port1, port2 } = new MessageChannel();
    const runtimeLock = await this.control.connect(Comlink.transfer(port1, [port1]));
    return { port: port2, runtimeLock };
  }

  async #ownLink(): Promise<RuntimeLink> {
    const { port, runtimeLock } = await this.#newPort();
    const gone = new AbortController();
    void whenLockReleased(runtimeLock).then(() => gone.abort());
    return { port, peerLock: await this.options.peerLock, gone: gone.signal };
  }
}
