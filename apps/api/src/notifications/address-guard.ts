import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Push endpoints are URLs a client gave: before any connection their host's addresses are checked,
 * and the connection goes to the address checked (a `lookup` for `http.request`), so a name that
 * resolves to something else a moment later cannot reach inside the network (DNS rebinding).
 * Refused unless allowed: loopback, private (RFC 1918, unique local), link local (cloud metadata),
 * carrier-grade NAT, unspecified, multicast and reserved ranges, in IPv4 or mapped into IPv6.
 */
const refused = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  refused.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  refused.addSubnet(network, prefix, 'ipv6');

/** Whether `address` (an IP literal) is one a push must not reach. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  // An IPv4 address mapped into IPv6 is that IPv4 address. (Not a range of the list: BlockList
  // checks IPv4 addresses against IPv6 ranges in that mapping, so ::ffff:0:0/96 would refuse all.)
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isInternalAddress(mapped);
  return refused.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';
}

/**
 * A `lookup` for `http(s).request` that resolves the name and refuses it when any of its addresses
 * is internal (`allowInternal` lets them through: tests, a push service inside the network).
 */
export function guardedLookup(allowInternal: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const bad = addresses.find((a) => isInternalAddress(a.address));
      if (bad && !allowInternal)
        return callback(new RefusedAddressError(`${hostname} resolves to an internal address`), '', 0);
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname} has no address`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}
