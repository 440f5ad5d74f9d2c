import { parse } from 'pg-connection-string';
import { parseDatabaseUrl } from './database-url';

describe('parseDatabaseUrl', () => {
  it('gives each host its own port, in the order written, and 5432 where none is written', () => {
    const url = parseDatabaseUrl('postgres://u@h1:5433,h2,[::1]:6000/tally?target_session_attrs=read-write');
    expect(url.multiHost).toBe(true);
    expect(url.targetSessionAttrs).toBe('read-write');
    expect(url.hosts.map(({ host, port }) => ({ host, port }))).toEqual([
      { host: 'h1', port: 5433 },
      { host: 'h2', port: 5432 },
      { host: '::1', port: 6000 },
    ]);
    expect(url.hosts.map((h) => h.url)).toEqual([
      'postgres://u@h1:5433/tally',
      'postgres://u@h2:5432/tally',
      'postgres://u@[::1]:6000/tally',
    ]);
  });

  it('keeps percent-encoded credentials as written, so pg decodes them as before', () => {
    const url = parseDatabaseUrl('postgresql://ad%40m:p%40ss%3Aw%2Frd@h1:5432,h2:5432/tally');
    for (const host of url.hosts) {
      const config = parse(host.url);
      expect(config.user).toBe('ad@m');
      expect(config.password).toBe('p@ss:w/rd');
      expect(config.database).toBe('tally');
    }
  });

  it('keeps every other query parameter and drops only target_session_attrs', () => {
    const url = parseDatabaseUrl(
      'postgres://u@h1,h2/tally?sslmode=disable&target_session_attrs=primary&application_name=api',
    );
    expect(url.targetSessionAttrs).toBe('primary');
    expect(url.hosts[1]?.url).toBe('postgres://u@h2:5432/tally?sslmode=disable&application_name=api');
    expect(parse(url.hosts[1]?.url ?? '').application_name).toBe('api');
  });

  it('takes target_session_attrs=any (the default) over several hosts: the first that answers', () => {
    expect(parseDatabaseUrl('postgres://u@h1,h2/tally?target_session_attrs=any')).toMatchObject({
      multiHost: true,
      targetSessionAttrs: 'any',
    });
    expect(parseDatabaseUrl('postgres://u@h1,h2/tally').targetSessionAttrs).toBe('any');
  });

  it('leaves a single-host URL exactly as written (pg reads it as before)', () => {
    for (const text of [
      'postgres://postgres@127.0.0.1:5432/test',
      'postgresql://u:p%40ss@db/tally?sslmode=require',
      'postgres:///tally?host=/var/run/postgresql',
    ]) {
      const url = parseDatabaseUrl(text);
      expect(url.multiHost).toBe(false);
      expect(url.hosts.every((h) => h.url === text)).toBe(true);
    }
    expect(parseDatabaseUrl('postgres://db/tally').hosts).toEqual([
      { host: 'db', port: 5432, url: 'postgres://db/tally' },
    ]);
  });

  it('takes one host with a session kind through the host selection too', () => {
    const url = parseDatabaseUrl('postgres://u@db:5432/tally?target_session_attrs=read-write');
    expect(url).toMatchObject({
      multiHost: true,
      hosts: [{ host: 'db', port: 5432, url: 'postgres://u@db:5432/tally' }],
    });
  });

  it.each([
    ['mysql://h1,h2/x', /postgres/],
    ['postgres://u@h1:5432,,h2/x', /empty host/],
    ['postgres://u@h1:99999,h2/x', /"h1:99999" has no valid port/],
    ['postgres://u@h1:abc,h2/x', /no valid port/],
    ['postgres://u@h1,h2/x?target_session_attrs=master', /target_session_attrs must be one of/],
    ['postgres://u@:5432,h2/x', /names no host/],
  ])('refuses %s', (text, message) => {
    expect(() => parseDatabaseUrl(text)).toThrow(message);
  });
});
