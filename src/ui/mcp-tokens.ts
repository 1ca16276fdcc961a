/**
 * Tokens of the MCP servers in the settings, kept in this tab's memory only.
 *
 * Why memory and not sessionStorage: the settings live in IndexedDB, where secrets must
 * not be; sessionStorage is no better a place — Chromium writes it to disk for session
 * restore, and any script of the origin (or a later bug) can read it back. In memory the
 * token goes away with the tab or a reload, and the only copy the runtime sees is the
 * request's `authorization`, which it keeps in the run's memory and echoes nowhere.
 * The price: after a reload the person enters the token again (the Settings dialog says so).
 */
import { ExternalStore } from './external-store';

/** Server label → token. */
export type McpTokens = Readonly<Record<string, string>>;

export class McpTokenStore extends ExternalStore<McpTokens> {
  constructor() {
    super({});
  }

  /** An empty token removes it. */
  setToken(label: string, token: string): void {
    const { [label]: _, ...rest } = this.get();
    this.set(token ? { ...rest, [label]: token } : rest);
  }

  tokens = (): McpTokens => this.get();
}
