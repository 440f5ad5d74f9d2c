/**
 * The parsers of the configuration's structured values (CORS_ORIGINS, REDIS_CLUSTER_NODES), and the
 * rules the declarations share.
 */
import { parseDatabaseUrl } from '@tally/db';
import Joi from 'joi';

/** A custom rule turning the text into `parse(text)`; a throw becomes one line naming the variable. */
export const parsedBy =
  <T>(parse: (text: string) => T): Joi.CustomValidator<string, T> =>
  (text: string, helpers) => {
    try {
      return parse(text);
    } catch (error) {
      return helpers.message({ custom: `{{#label}}: ${(error as Error).message}` });
    }
  };

/** DATABASE_URL as written, once `parseDatabaseUrl` (one host or several) accepts it. */
export const checkDatabaseUrl = (text: string): string => {
  parseDatabaseUrl(text);
  return text;
};

/** A whole number from `min` (to `max`) with a default: the shape most variables share. */
export function integer(range: { min?: number; max?: number; default: number }, meaning: string) {
  let schema = Joi.number().integer();
  if (range.min !== undefined) schema = schema.min(range.min);
  if (range.max !== undefined) schema = schema.max(range.max);
  return schema.default(range.default).description(meaning);
}

/** `scheme://host[:port]`, optionally with a trailing `/`: an origin as written by people. */
const ORIGIN_PATTERN = /^([a-z][a-z0-9+.-]*):\/\/([^/?#@\s]+)\/?$/i;

/**
 * Parses CORS_ORIGINS: a comma-separated list of exact origins, or `*` alone. Each origin is
 * normalised to what a browser sends in `Origin` (lower-case scheme and host, no default port, no
 * trailing slash), so `https://App.example.com:443/` allows `https://app.example.com`. Schemes other
 * than http(s) (`capacitor://localhost` of a Capacitor app) are kept as written, lower-cased.
 * @throws Error naming the entry that is not an origin
 */
export function parseCorsOrigins(text: string): '*' | string[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.includes('*')) {
    if (entries.length > 1) throw new Error('"*" allows every origin and cannot be combined with others');
    return '*';
  }
  const origins = entries.map((entry) => {
    const match = ORIGIN_PATTERN.exec(entry);
    const scheme = match?.[1]?.toLowerCase();
    if (!match || scheme === undefined) {
      throw new Error(`"${entry}" is not an origin (scheme://host[:port], without a path)`);
    }
    if (scheme !== 'http' && scheme !== 'https') return `${scheme}://${(match[2] ?? '').toLowerCase()}`;
    try {
      return new URL(entry).origin;
    } catch {
      throw new Error(`"${entry}" is not an origin (scheme://host[:port], without a path)`);
    }
  });
  return [...new Set(origins)];
}

/** A Redis Cluster to use instead of a single Redis (REDIS_CLUSTER_NODES). */
export type RedisClusterConfig = Readonly<{
  /** Startup nodes: any of the cluster's nodes; the client learns the rest from them. */
  nodes: readonly Readonly<{ host: string; port: number }>[];
  /** Credentials and TLS, from `redis://` / `rediss://` entries; they apply to every node. */
  username: string | undefined;
  password: string | undefined;
  tls: boolean;
}>;

/**
 * Parses REDIS_CLUSTER_NODES: comma-separated `host:port` (`[v6addr]:port`) entries, or
 * `redis://` / `rediss://` URLs where credentials or TLS are needed (`rediss://:secret@host:6379`);
 * the URL entries must agree on scheme and credentials, which then apply to every node.
 * @throws Error naming the entry that is not a node
 */
export function parseRedisClusterNodes(text: string): RedisClusterConfig {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) throw new Error('lists no node (host:port,host:port,…)');
  let auth: { tls: boolean; username: string | undefined; password: string | undefined } | undefined;
  const nodes = new Map<string, { host: string; port: number }>();
  const portOf = (entry: string, text: string) => {
    const port = Number(text);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`"${entry}" has no valid port`);
    return port;
  };
  for (const entry of entries) {
    let host: string;
    let port: number;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw new Error(`"${entry}" is not a URL`);
      }
      if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
        throw new Error(`"${entry}": only redis:// and rediss:// URLs, or host:port`);
      const these = {
        tls: url.protocol === 'rediss:',
        username: decodeURIComponent(url.username) || undefined,
        password: decodeURIComponent(url.password) || undefined,
      };
      if (auth && JSON.stringify(auth) !== JSON.stringify(these))
        throw new Error('its URL entries differ in scheme or credentials; every node takes the same');
      auth = these;
      host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      port = url.port === '' ? 6379 : portOf(entry, url.port);
    } else {
      const match = /^(?:\[([^\]\s]+)\]|([^:/@\s[\]]+)):(\d+)$/.exec(entry);
      if (!match) throw new Error(`"${entry}" is not host:port`);
      host = (match[1] ?? match[2]) as string;
      port = portOf(entry, match[3] as string);
    }
    nodes.set(`${host}|${port}`, Object.freeze({ host, port }));
  }
  return Object.freeze({
    nodes: Object.freeze([...nodes.values()]),
    username: auth?.username,
    password: auth?.password,
    tls: auth?.tls ?? false,
  });
}
