import { BlockList, isIP } from 'node:net';

/**
 * The addresses an outbound request to a URL a client gave may not reach (SSRF): a webhook unless
 * `WEBHOOK_ALLOW_PRIVATE_ADDRESSES` is set (API.md §12.4), a push endpoint unless
 * `PUSH_ALLOW_PRIVATE_ENDPOINTS` is (§13.2): this host, its networks and the cloud's metadata service. IPv4 ranges also cover their
 * IPv4-mapped IPv6 form (`::ffff:10.0.0.1`), which `BlockList` checks only for the IPv4 entry.
 */
const REFUSED_V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const REFUSED_V6: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b::', 96, 'NAT64'],
  ['64:ff9b:1::', 48, 'NAT64'],
  ['100::', 64, 'discard'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

const lists = [
  ...REFUSED_V4.map((r) => [...r, 'ipv4'] as const),
  ...REFUSED_V6.map((r) => [...r, 'ipv6'] as const),
].map(([network, prefix, why, family]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { list, why, family };
});

/** The IPv4 address an IPv4-mapped or -compatible IPv6 address carries (`::ffff:a.b.c.d`), if any. */
function embeddedV4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/.exec(lower.replace(/^::/, '0::'));
  if (dotted?.[1] && isIP(dotted[1]) === 4) return dotted[1];
  // The hex spelling of a mapped address: ::ffff:7f00:1.
  const hex = /^(?:0{0,4}:){0,5}ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower.replace(/^::/, '0::'));
  if (!hex?.[1] || !hex[2]) return undefined;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * Why a webhook may not connect to `address` (an IP literal), or undefined when it is a public
 * address. Anything that is not an IP address is refused too: only resolved addresses come here.
 */
export function refusedAddress(address: string): string | undefined {
  const unbracketed = address.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(unbracketed);
  if (family === 0) return 'not an IP address';
  if (family === 6) {
    const v4 = embeddedV4(unbracketed);
    if (v4 !== undefined) return refusedAddress(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const { list, why, family: listFamily } of lists) {
    if (listFamily === type && list.check(unbracketed, type)) return why;
  }
  return undefined;
}
