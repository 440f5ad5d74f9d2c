/**
 * `DATABASE_URL` in libpq's multi-host form, which `pg` does not read:
 * `postgres://user:pass@h1:5432,h2:5433/db?target_session_attrs=read-write`. It becomes one
 * single-host URL per host (what `pg` does read), in the order written, plus the kind of session
 * wanted. libpq's meaning: the hosts are tried in turn and the first whose session fits
 * `target_session_attrs` is taken (`any`, the default: the first that answers).
 */

/** libpq's `target_session_attrs` values. */
export const TARGET_SESSION_ATTRS = [
  'any',
  'read-write',
  'read-only',
  'primary',
  'standby',
  'prefer-standby',
] as const;
export type TargetSessionAttrs = (typeof TARGET_SESSION_ATTRS)[number];

export type DatabaseHost = {
  host: string;
  port: number;
  /** The URL with this host alone, `target_session_attrs` removed: what `pg` is given (a single-host URL: as written). */
  url: string;
};

export type DatabaseUrl = {
  /** In the order written (none for a single-host URL without a host: a Unix socket's). */
  hosts: DatabaseHost[];
  targetSessionAttrs: TargetSessionAttrs;
  /**
   * Whether the URL needs Tally's own host selection (more than one host, or a session kind other
   * than `any`); otherwise it goes to `pg` exactly as written.
   */
  multiHost: boolean;
};

const DEFAULT_PORT = 5432;
const URL_PATTERN = /^(postgres(?:ql)?:)\/\/(?:([^@/?#]*)@)?([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i;

/**
 * Parses a `postgres://`/`postgresql://` URL with one host or several (`h1:p1,h2,[::1]:p3`; a host
 * without a port gets 5432). Credentials, database and every other query parameter are kept as
 * written in each host's URL.
 * @throws Error saying what is wrong (no host, a bad port, an unknown `target_session_attrs`)
 */
export function parseDatabaseUrl(text: string): DatabaseUrl {
  const match = URL_PATTERN.exec(text.trim());
  if (!match) throw new Error('is not a postgres:// or postgresql:// URL');
  const [, scheme, userinfo, hostList = '', pathname = '', search = ''] = match;
  const params = new URLSearchParams(search);
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (!(TARGET_SESSION_ATTRS as readonly string[]).includes(attrs)) {
    throw new Error(`target_session_attrs must be one of ${TARGET_SESSION_ATTRS.join(', ')}, not "${attrs}"`);
  }
  params.delete('target_session_attrs');
  const query = params.size > 0 ? `?${params.toString()}` : '';
  const multiHost = hostList.includes(',') || attrs !== 'any';
  if (!multiHost) {
    // One host and no session kind: `pg` reads it as it always did (a socket URL has no host).
    try {
      new URL(text.trim());
    } catch {
      throw new Error('is not a valid URL');
    }
    return {
      hosts: hostList === '' ? [] : [singleHost(text.trim(), hostList)],
      targetSessionAttrs: 'any',
      multiHost,
    };
  }
  const entries = hostList.split(',');
  if (entries.some((entry) => entry.trim() === '')) throw new Error('names an empty host');
  const hosts = entries.map((entry) => {
    const { host, port } = hostAndPort(entry.trim());
    const url = `${scheme}//${userinfo !== undefined ? `${userinfo}@` : ''}${host}:${port}${pathname}${query}`;
    try {
      new URL(url);
    } catch {
      throw new Error(`host "${entry}" does not make a valid URL`);
    }
    return { host: host.replace(/^\[(.*)\]$/, '$1'), port, url };
  });
  return { hosts, targetSessionAttrs: attrs as TargetSessionAttrs, multiHost };
}

function singleHost(url: string, entry: string): DatabaseHost {
  const { host, port } = hostAndPort(entry);
  return { host: host.replace(/^\[(.*)\]$/, '$1'), port, url };
}

function hostAndPort(entry: string): { host: string; port: number } {
  const bracketed = /^(\[[^\]]+\])(?::(.*))?$/.exec(entry);
  const colon = entry.lastIndexOf(':');
  const [host, portText] = bracketed
    ? [bracketed[1] as string, bracketed[2]]
    : colon >= 0
      ? [entry.slice(0, colon), entry.slice(colon + 1)]
      : [entry, undefined];
  if (host === '') throw new Error(`"${entry}" names no host`);
  if (portText === undefined || portText === '') return { host, port: DEFAULT_PORT };
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65535) throw new Error(`"${entry}" has no valid port`);
  return { host, port };
}
