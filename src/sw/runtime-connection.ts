import { whenLockReleased } from '../transport/lifetime-lock';
import type { RuntimeLink } from '../transport/port-fetch';
import { PORT_WANTED_MESSAGE, type PortWantedMessage, type RuntimePortMessage } from '../transport/sw-messages';

export interface RuntimeConnectionOptions {
  /** The lifetime lock of this SW instance (already held). */
  peerLock: Promise<string>;
  /** Asks the pages for a port (the leader answers with a {@link RuntimePortMessage}). */
  askPages: (message: PortWantedMessage) => Promise<void>;
}

/**
 * The SW's link to the runtime. Only a cache: a restarted SW starts without one and asks
 * the open pages for a new port; the runtime's lifetime lock tells it when a link is dead.
 */
export class RuntimeConnection {
  #link: RuntimeLink | undefined;
  #waiters = new Set<(link: RuntimeLink) => void>();
  readonly #options: RuntimeConnectionOptions;

  constructor(options: RuntimeConnectionOptions) {
    this.#options = options;
  }

  /** Adopts a port sent by the leader page. */
  async accept(message: RuntimePortMessage): Promise<void> {
    const gone = new AbortController();
    const link: RuntimeLink = {
      port: message.port,
      peerLock: await this.#options.peerLock,
      gone: gone.signal,
    };
    void whenLockReleased(message.runtimeLock).then(() => {
      gone.abort();
      message.port.close();
      if (this.#link === link) this.#link = undefined;
    });
    this.#link = link;
    for (const wake of this.#waiters) wake(link);
    this.#waiters.clear();
  }

  /** The current link, or one from a page within `timeoutMs`; `undefined` if none came. */
  async link(timeoutMs: number): Promise<RuntimeLink | undefined> {
    if (this.#link && !this.#link.gone.aborted) return this.#link;
    // A burst of requests asks once; the leader's one answer wakes them all.
    const askNow = this.#waiters.size === 0;
    const arrived = new Promise<RuntimeLink | undefined>((resolve) => {
      this.#waiters.add(resolve);
      setTimeout(() => {
        this.#waiters.delete(resolve);
        resolve(undefined);
      }, timeoutMs);
    });
    if (askNow) await this.#options.askPages({ type: PORT_WANTED_MESSAGE });
    return arrived;
  }
}
