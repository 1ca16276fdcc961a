/**
 * Which URLs the web tools may fetch. The model chooses URLs, and a page can name any URL,
 * so every fetch (search provider included) passes through `checkUrl` first:
 * - http(s) only: never `file:`, `data:`, `blob:`, `javascript:` and the like;
 * - never this app's own origin (its `/v1` would run with the app's rights; nothing else
 *   there is worth reading either);
 * - no private-network or otherwise non-public hosts (localhost, RFC 1918, link-local,
 *   ULA, `.local`, …) unless the user allowed them.
 *
 * Limits: a public host name that resolves to a private address cannot be seen from a
 * browser (no DNS access); Chromium's Private Network Access checks cover part of that.
 * Redirect targets are checked before they are requested (see `fetch-web-search.ts`).
 */
import { privateHost } from '../../shared/private-host';

export interface UrlPolicy {
  /** The app's origin, e.g. `https://app.example`; never fetched. */
  appOrigin: string;
  /** Allow localhost and private-network addresses (tests, self-hosted SearXNG). Default false. */
  allowPrivateNetwork?: boolean;
  /**
   * Hosts allowed even though they are private, each `host:port` (one server) or `host` (that
   * host at the scheme's default port, 80 or 443). An entry opens that port only: allowing a
   * SearXNG at `localhost:8888` leaves every other port of `localhost` closed.
   */
  allowHosts?: readonly string[];
}

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/** Whether `raw` may be fetched under `policy`; the reason says what was refused and why. */
export function checkUrl(raw: string, policy: UrlPolicy): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `"${raw}" is not an absolute URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `${url.protocol} URLs are not fetched (only http and https)` };
  }
  if (url.username || url.password) return { ok: false, reason: 'URLs with credentials are not fetched' };
  if (url.origin === new URL(policy.appOrigin).origin) {
    return { ok: false, reason: 'this app’s own origin is never fetched by the web tools' };
  }
  const allowed = policy.allowHosts?.some((entry) => sameServer(entry, url));
  if (policy.allowPrivateNetwork || allowed) return { ok: true, url };
  const why = privateHost(url.hostname);
  return why ? { ok: false, reason: `${url.host} is ${why}; private-network addresses are not fetched unless allowed` } : { ok: true, url };
}

/** The port a URL reaches: its own, else its scheme's default. */
function portOf(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/**
 * Whether an `allowHosts` entry names the server `url` reaches: the same host, as the URL
 * parser writes it (so `LOCALHOST`, `127.1` and `127.0.0.1` are one host), and the same port
 * (an entry without one: the scheme's default). An entry that is not a host is no match.
 */
function sameServer(entry: string, url: URL): boolean {
  const trimmed = entry.trim();
  if (!trimmed || /[/?#@\\]/.test(trimmed)) return false;
  let parsed: URL;
  try {
    parsed = new URL(`${url.protocol}//${trimmed}`);
  } catch {
    return false;
  }
  // `host:80` given for http (or `:443` for https) is parsed to no port: it is the default one.
  return parsed.hostname === url.hostname && portOf(parsed) === portOf(url);
}
