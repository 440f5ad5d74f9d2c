import {
  clientIpOf,
  compileTrustProxy,
  DEFAULT_TRUST_PROXY,
  normalizeIp,
  parseTrustProxy,
} from './client-ip';

/** A request from `peer` carrying `forwarded` as its X-Forwarded-For. */
const from = (peer: string | undefined, forwarded?: string) => ({
  socket: { remoteAddress: peer } as never,
  headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
});
const ipBy = (setting: string, peer: string | undefined, forwarded?: string) =>
  clientIpOf(from(peer, forwarded), compileTrustProxy(parseTrustProxy(setting)));

describe('normalizeIp', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4'],
    [' 1.2.3.4 ', '1.2.3.4'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['::FFFF:0102:0304', '1.2.3.4'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['[2001:db8::1]:443', '2001:db8::1'],
    ['203.0.113.9:5678', '203.0.113.9'],
  ])('%s → %s', (text, ip) => {
    expect(normalizeIp(text)).toBe(ip);
  });

  it.each(['unknown', '', '1.2.3', '01.2.3.4', '1.2.3.4, 5.6.7.8', '<script>', 'a'.repeat(500), '1.2.3.4.5'])(
    'refuses %j',
    (text) => {
      expect(normalizeIp(text)).toBeUndefined();
    },
  );
});

describe('TRUST_PROXY', () => {
  it('parses hop counts, addresses, CIDRs and the named ranges; String() is its spelling', () => {
    expect(parseTrustProxy('')).toBe(DEFAULT_TRUST_PROXY);
    expect(String(DEFAULT_TRUST_PROXY)).toBe('loopback');
    expect(parseTrustProxy('2')).toEqual({ hops: 2 });
    expect(String(parseTrustProxy(' 0 '))).toBe('0');
    const list = parseTrustProxy('10.0.0.0/8, 2001:DB8::1 ,loopback');
    expect(list).toEqual({ addresses: ['10.0.0.0/8', '2001:db8::1/128', '127.0.0.0/8', '::1/128'] });
    expect(String(list)).toBe('10.0.0.0/8,2001:db8::1,loopback');
  });

  it.each(['17', 'proxy.example.com', '10.0.0.0/33', 'fd00::/129', '1.2.3.4/8/1', ',', '1.2.3.4:80', '-1'])(
    'refuses %j with a message naming it',
    (text) => {
      expect(() => parseTrustProxy(text)).toThrow();
    },
  );

  it('by default believes only a proxy on loopback, and takes its last entry', () => {
    expect(ipBy('', '127.0.0.1', '203.0.113.7')).toBe('203.0.113.7');
    expect(ipBy('', '::ffff:127.0.0.1', '203.0.113.7')).toBe('203.0.113.7');
    expect(ipBy('', '::1', '203.0.113.7')).toBe('203.0.113.7');
    // A peer on a private network is the client itself, whatever it writes (main: believed).
    for (const peer of ['10.1.2.3', '192.168.1.20', '172.16.0.5', 'fd00::5', 'fe80::1']) {
      expect(ipBy('', peer, '198.51.100.1')).toBe(normalizeIp(peer));
    }
    // A client behind the loopback proxy cannot name an address of its choice by prepending one.
    expect(ipBy('', '127.0.0.1', '198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
  });

  it('with a list walks back through every trusted proxy, and stops at the first that is not', () => {
    expect(ipBy('10.0.0.0/8', '10.0.0.2', '203.0.113.7, 10.0.0.9')).toBe('203.0.113.7');
    expect(ipBy('10.0.0.0/8', '10.0.0.2', '10.0.0.8, 10.0.0.9')).toBe('10.0.0.8');
    expect(ipBy('10.0.0.0/8', '11.0.0.2', '203.0.113.7')).toBe('11.0.0.2');
    expect(ipBy('10.0.0.0/8', '::ffff:10.0.0.2', '203.0.113.7')).toBe('203.0.113.7');
  });

  it('with a hop count takes that many entries from the right, whatever their address', () => {
    expect(ipBy('0', '127.0.0.1', '203.0.113.7')).toBe('127.0.0.1');
    expect(ipBy('1', '10.9.9.9', '198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
    expect(ipBy('2', '10.9.9.9', '198.51.100.1, 203.0.113.7')).toBe('198.51.100.1');
    expect(ipBy('3', '10.9.9.9', '198.51.100.1, 203.0.113.7')).toBe('198.51.100.1');
    expect(ipBy('2', '10.9.9.9', '198.51.100.1')).toBe('198.51.100.1');
  });

  it('always answers an IP address: text that is not one stops the walk at the proxy that passed it on', () => {
    expect(ipBy('', '127.0.0.1', 'hello world')).toBe('127.0.0.1');
    expect(ipBy('', '127.0.0.1', '')).toBe('127.0.0.1');
    expect(ipBy('1', '10.9.9.9', '203.0.113.7, <img src=x>')).toBe('10.9.9.9');
    expect(ipBy('', '127.0.0.1', '::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(ipBy('', '127.0.0.1', '[2001:db8::7]:51000')).toBe('2001:db8::7');
    expect(ipBy('', undefined, '203.0.113.7')).toBeUndefined();
  });
});
