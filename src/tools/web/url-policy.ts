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
import ipaddr from 'ipaddr.js';

export interface UrlPolicy {
  /** The app's origin, e.g. `https://app.example`; never fetched. */
  appOrigin: string;
  /** Allow localhost and private-network addresses (tests, self-hosted SearXNG). Default false. */
  allowPrivateNetwork?: boolean;
  /** Hosts (`host` or `host:port`) allowed even though they are private. */
  allowHosts?: readonly string[];
}

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

// Names that never resolve publicly: RFC 6761/6762/8375 and the TLDs ICANN will not delegate.
const PRIVATE_NAME = /(^|\.)(localhost|local|localdomain|internal|home\.arpa|lan|home|corp)$/i;

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
  const allowed = policy.allowHosts?.some((h) => h.toLowerCase() === url.host || h.toLowerCase() === url.hostname);
  if (policy.allowPrivateNetwork || allowed) return { ok: true, url };
  const why = privateHost(url.hostname);
  return why ? { ok: false, reason: `${url.host} is ${why}; private-network addresses are not fetched unless allowed` } : { ok: true, url };
}

/** Why `hostname` (as the URL parser serialised it) is not a public host, or null if it is. */
function privateHost(hostname: string): string | null {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname.replace(/\.$/, '');
  if (ipaddr.isValid(bare)) {
    const range = embeddedIPv4(ipaddr.parse(bare)).range();
    return range === 'unicast' ? null : `a ${range} address`;
  }
  if (!bare.includes('.') || PRIVATE_NAME.test(bare)) return 'a local host name';
  return null;
}

/**
 * An IPv6 address that carries an IPv4 address in its low 32 bits and may reach it — the
 * IPv4-mapped `::ffff:a.b.c.d` and the (deprecated) IPv4-compatible `::a.b.c.d` — is judged
 * as that IPv4 address: `[::127.0.0.1]` is loopback, whatever a stack does with it. (The
 * other embedding ranges — NAT64, 6to4, Teredo, SIIT — are not `unicast` in ipaddr.js,
 * so they are refused as they are.) `::` and `::1` keep their own IPv6 meaning.
 */
function embeddedIPv4(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (address.kind() === 'ipv4') return address;
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  const p = v6.parts;
  const compatible = p.slice(0, 6).every((part) => part === 0) && (p[6] !== 0 || p[7]! > 1);
  return compatible ? ipaddr.IPv4.parse(`${p[6]! >> 8}.${p[6]! & 255}.${p[7]! >> 8}.${p[7]! & 255}`) : v6;
}
