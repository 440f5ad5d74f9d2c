import type { IncomingMessage } from 'node:http';
import { BlockList, isIP, SocketAddress } from 'node:net';

/**
 * Which peers may tell the client's address in `X-Forwarded-For` (`TRUST_PROXY`, API.md §10):
 * - `{ hops: n }`: the n proxies nearest to this process are believed whatever their address
 *   (`0`: nobody, the client IP is the socket's peer);
 * - `{ addresses }`: a peer whose address is in one of these (addresses or CIDRs) is a proxy.
 */
export type TrustProxy = Readonly<{ hops: number } | { addresses: readonly string[] }>;

/** The most proxies `TRUST_PROXY` may count. */
export const MAX_TRUSTED_HOPS = 16;

/** The names `TRUST_PROXY` takes for well-known ranges (as express's `trust proxy` does). */
const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** A frozen rule whose `String()` is its `TRUST_PROXY` spelling (for the docs and logs). */
function trustOf(rule: { hops: number } | { addresses: readonly string[] }, text: string): TrustProxy {
  Object.defineProperty(rule, 'toString', { value: () => text, enumerable: false });
  if ('addresses' in rule) Object.freeze(rule.addresses);
  return Object.freeze(rule);
}

/** The default: only a proxy on this machine (loopback) is believed. */
export const DEFAULT_TRUST_PROXY: TrustProxy = trustOf(
  { addresses: [...(NAMED_RANGES['loopback'] as readonly string[])] },
  'loopback',
);

/**
 * An IP address in its one canonical spelling, or undefined for anything else: IPv4 dotted quad,
 * IPv6 compressed lower case without zone, an IPv4-mapped IPv6 address as its IPv4. A port
 * (`1.2.3.4:5678`, `[::1]:80`) or brackets around an IPv6 address, as some proxies write them, are
 * taken off.
 */
export function normalizeIp(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let address = text.trim();
  if (address.length > 100) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(address);
  if (bracketed?.[1]) address = bracketed[1];
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(address);
  if (withPort?.[1]) address = withPort[1];
  const family = isIP(address);
  if (family === 0) return undefined;
  const canonical = new SocketAddress({ address, family: family === 4 ? 'ipv4' : 'ipv6' }).address;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(canonical);
  return mapped?.[1] ?? canonical;
}

/**
 * Parses `TRUST_PROXY`: a hop count (`0`–`16`), or a comma-separated list of addresses, CIDRs
 * (`10.0.0.0/8`, `fd00::/8`) and the names `loopback`, `linklocal`, `uniquelocal`. Empty: the default
 * (`loopback`).
 * @throws Error naming the entry that is none of these
 */
export function parseTrustProxy(text: string): TrustProxy {
  const trimmed = text.trim();
  if (trimmed === '') return DEFAULT_TRUST_PROXY;
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    if (hops > MAX_TRUSTED_HOPS) throw new Error(`a hop count is at most ${MAX_TRUSTED_HOPS}`);
    return trustOf({ hops }, String(hops));
  }
  const addresses: string[] = [];
  const spelled: string[] = [];
  for (const entry of trimmed.split(',').map((e) => e.trim())) {
    if (entry === '') continue;
    const named = NAMED_RANGES[entry.toLowerCase()];
    if (named) {
      addresses.push(...named);
      spelled.push(entry.toLowerCase());
      continue;
    }
    const [address = '', prefix, extra] = entry.split('/');
    const normal = isIP(address) === 0 ? undefined : normalizeIp(address);
    const bits = isIP(normal ?? '') === 4 ? 32 : 128;
    const length = prefix === undefined ? bits : /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
    if (normal === undefined || extra !== undefined || length < 0 || length > bits)
      throw new Error(
        `"${entry}" is not an address, a CIDR or one of loopback, linklocal, uniquelocal (or a hop count alone)`,
      );
    addresses.push(`${normal}/${length}`);
    spelled.push(prefix === undefined ? normal : `${normal}/${length}`);
  }
  if (addresses.length === 0) throw new Error('names no address (or give a hop count)');
  return trustOf({ addresses: [...new Set(addresses)] }, [...new Set(spelled)].join(','));
}

/** Whether the peer at `address` (canonical), `hop` proxies away from this process, is a proxy. */
export type TrustRule = (address: string, hop: number) => boolean;

export function compileTrustProxy(trust: TrustProxy): TrustRule {
  if ('hops' in trust) {
    const { hops } = trust;
    return (_address, hop) => hop < hops;
  }
  const list = new BlockList();
  for (const cidr of trust.addresses) {
    const [address = '', prefix = ''] = cidr.split('/');
    const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    list.addSubnet(address, Number(prefix), family);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/**
 * The client's IP address by `rule`: the socket's peer, then, while that peer is a trusted proxy,
 * the address it put last into `X-Forwarded-For`, and so on leftwards. An entry that is not an IP
 * address stops the walk at the proxy that passed it on. Always a canonical address
 * (`normalizeIp`); undefined only when the socket has none (it closed).
 */
export function clientIpOf(
  req: Pick<IncomingMessage, 'socket' | 'headers'>,
  rule: TrustRule,
): string | undefined {
  let current = normalizeIp(req.socket?.remoteAddress);
  if (current === undefined) return undefined;
  const header = req.headers['x-forwarded-for'];
  if (!header) return current;
  const forwarded = (Array.isArray(header) ? header.join(',') : header).split(',');
  for (let hop = 0; hop < forwarded.length; hop++) {
    if (!rule(current, hop)) return current;
    const next = normalizeIp(forwarded[forwarded.length - 1 - hop]);
    if (next === undefined) return current;
    current = next;
  }
  return current;
}
