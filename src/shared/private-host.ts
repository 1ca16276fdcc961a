/**
 * Whether a host is public: loopback, private-network (RFC 1918, link-local, ULA, …) and
 * local names (`localhost`, `.local`, single labels, …) are not. One judgement for every
 * place that decides what may be fetched (web tools' URL policy, remote providers' `http:`).
 *
 * Limits: a public host name that resolves to a private address cannot be seen from a
 * browser (no DNS access).
 */
import ipaddr from 'ipaddr.js';

// Names that never resolve publicly: RFC 6761/6762/8375 and the TLDs ICANN will not delegate.
const PRIVATE_NAME = /(^|\.)(localhost|local|localdomain|internal|home\.arpa|lan|home|corp)$/i;

/** Why `hostname` (as the URL parser serialised it) is not a public host, or null if it is. */
export function privateHost(hostname: string): string | null {
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
