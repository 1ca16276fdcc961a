import { describe, expect, test } from 'vitest';
import { checkUrl, type UrlPolicy } from './url-policy';

const policy: UrlPolicy = { appOrigin: 'https://app.example' };

describe('checkUrl', () => {
  test.each([
    ['https://en.wikipedia.org/wiki/Paris', true],
    ['http://example.com/a?b=c', true],
    ['https://8.8.8.8/', true],
    ['https://[2606:4700::1111]/', true],
    // This app: /v1 above all, and the rest of the origin too.
    ['https://app.example/v1/models', false],
    ['https://app.example/v1/responses', false],
    ['https://app.example/', false],
    ['https://APP.example:443/v1', false],
    // Other schemes.
    ['file:///etc/passwd', false],
    ['data:text/html,<p>hi</p>', false],
    ['blob:https://app.example/1234', false],
    ['javascript:alert(1)', false],
    ['ftp://example.com/', false],
    ['ws://example.com/', false],
    ['not a url', false],
    ['/relative/path', false],
    ['https://user:pw@example.com/', false],
    // Private networks, in every spelling the URL parser accepts.
    ['http://localhost:8080/', false],
    ['http://LOCALHOST./', false],
    ['http://api.localhost/', false],
    ['http://127.0.0.1/', false],
    ['http://127.1.2.3:9/', false],
    ['http://2130706433/', false],
    ['http://0x7f.1/', false],
    ['http://0.0.0.0/', false],
    ['http://10.1.2.3/', false],
    ['http://172.16.0.1/', false],
    ['http://172.31.255.255/', false],
    ['http://192.168.1.1/', false],
    ['http://169.254.169.254/latest/meta-data', false],
    ['http://100.64.0.1/', false],
    ['http://[::1]/', false],
    ['http://[::]/', false],
    ['http://[fc00::1]/', false],
    ['http://[fd12:3456::1]/', false],
    ['http://[fe80::1]/', false],
    ['http://[::ffff:127.0.0.1]/', false],
    ['http://[::ffff:10.0.0.1]/', false],
    // IPv4-compatible IPv6 (::a.b.c.d, which the URL parser writes as ::7f00:1) is its IPv4.
    ['http://[::127.0.0.1]/', false],
    ['http://[::7f00:1]/', false],
    ['http://[0:0:0:0:0:0:10.0.0.1]/', false],
    ['http://[::169.254.169.254]/', false],
    ['http://[::0.0.0.2]/', false],
    ['http://[::ffff:0:127.0.0.1]/', false],
    ['http://[64:ff9b::127.0.0.1]/', false],
    ['http://[2002:7f00:1::]/', false],
    ['http://printer.local/', false],
    ['http://intranet/', false],
    ['http://router.home.arpa/', false],
    // Public addresses near the private ranges stay allowed.
    ['http://172.32.0.1/', true],
    ['http://11.0.0.1/', true],
    ['http://192.169.0.1/', true],
    ['http://[::8.8.8.8]/', true],
    ['http://[::ffff:8.8.8.8]/', true],
  ])('%s → %s', (url, ok) => {
    const verdict = checkUrl(url, policy);
    expect(verdict.ok, verdict.ok ? '' : verdict.reason).toBe(ok);
  });

  test('the reason says what to do', () => {
    const verdict = checkUrl('http://127.0.0.1:8080/', policy);
    expect(verdict).toEqual({ ok: false, reason: expect.stringMatching(/127\.0\.0\.1:8080 is a loopback address; private-network addresses are not fetched unless allowed/) });
    expect(checkUrl('file:///x', policy)).toMatchObject({ reason: expect.stringContaining('file: URLs are not fetched') });
  });

  test('allowPrivateNetwork opens private hosts, but never this app or other schemes', () => {
    const open = { ...policy, allowPrivateNetwork: true };
    expect(checkUrl('http://127.0.0.1:8080/x', open).ok).toBe(true);
    expect(checkUrl('http://localhost/', open).ok).toBe(true);
    expect(checkUrl('https://app.example/v1/models', open).ok).toBe(false);
    expect(checkUrl('http://127.0.0.1:4173/v1/models', { appOrigin: 'http://127.0.0.1:4173', allowPrivateNetwork: true }).ok).toBe(false);
    expect(checkUrl('file:///etc/passwd', open).ok).toBe(false);
  });

  test('allowHosts opens exactly the servers named: host and port', () => {
    const some = { ...policy, allowHosts: ['127.0.0.1:8888', 'searx.lan'] };
    expect(checkUrl('http://127.0.0.1:8888/search', some).ok).toBe(true);
    expect(checkUrl('http://127.0.0.1:8889/search', some).ok).toBe(false);
    expect(checkUrl('http://127.0.0.1/search', some).ok).toBe(false);
    expect(checkUrl('http://searx.lan/search', some).ok).toBe(true);
    expect(checkUrl('https://searx.lan/search', some).ok).toBe(true);
    expect(checkUrl('http://other.lan/', some).ok).toBe(false);
  });

  test.each([
    // A host named without a port is that host at the scheme's default port, no other.
    [['searx.lan'], 'http://searx.lan:22/', false],
    [['searx.lan'], 'http://searx.lan:8888/', false],
    [['searx.lan'], 'https://searx.lan:80/', false],
    [['searx.lan:80'], 'http://searx.lan/', true],
    [['searx.lan:443'], 'https://searx.lan/', true],
    [['searx.lan:443'], 'http://searx.lan/', false],
    [['localhost:8888'], 'http://localhost:8888/', true],
    [['localhost:8888'], 'http://localhost/', false],
    [['localhost:8888'], 'http://localhost:8080/', false],
    [['localhost:8888'], 'http://127.0.0.1:8888/', false],
    // Spelled as the URL parser spells it: case, short IPv4 forms and IPv6 brackets.
    [['LOCALHOST:8888'], 'http://localhost:8888/', true],
    [['127.1:8888'], 'http://127.0.0.1:8888/', true],
    [['[::1]:8888'], 'http://[::1]:8888/', true],
    [['[::1]:8888'], 'http://[::1]:8889/', false],
    // Entries that are not a host never match.
    [['localhost:8888/x'], 'http://localhost:8888/', false],
    [['user@localhost:8888'], 'http://localhost:8888/', false],
    [[''], 'http://localhost/', false],
    [['::1'], 'http://[::1]/', false],
  ])('allowHosts %j → %s allowed: %s', (allowHosts, url, ok) => {
    const verdict = checkUrl(url, { ...policy, allowHosts });
    expect(verdict.ok, verdict.ok ? '' : verdict.reason).toBe(ok);
  });
});
