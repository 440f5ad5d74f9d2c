import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { refusedAddress } from '../http/refused-address';

/**
 * Push endpoints are URLs a client gave: before any connection their host's addresses are checked
 * (the ranges of `http/refused-address.ts`, which webhooks refuse too), and the connection goes to
 * the address checked (a `lookup` for `http.request`), so a name that resolves to something else a
 * moment later cannot reach inside the network (DNS rebinding).
 */

/** Whether `address` (an IP literal) is one a push must not reach. */
export function isInternalAddress(address: string): boolean {
  return isIP(address) === 0 || refusedAddress(address) !== undefined;
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
