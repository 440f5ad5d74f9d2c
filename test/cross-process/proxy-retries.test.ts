import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { haproxyCommand, type RunningHaproxy, serverStats, startHaproxy } from '../../infra/fleet/haproxy';
import { freePort } from '../support/server-process';

/**
 * The local fleet's HAProxy (its own configuration generator, a real haproxy process, real sockets)
 * resends only what is safe to resend: safe methods and requests carrying an Idempotency-Key, never
 * /v1/auth/*; anything may be resent after a connection failure, when nothing reached a server.
 */

type Seen = { method: string; path: string };

/**
 * A stand-in API process that fails the first request it sees on each path: it closes the connection
 * without answering, or answers 503 when the request carries `X-Test-First: 503`. /readyz always
 * answers 200 and is not recorded. With `failFirst: false` it answers everything.
 */
async function startBackend(options: { failFirst: boolean }) {
  const seen: Seen[] = [];
  const failedOnce = new Set<string>();
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/readyz') {
      res.end('ok');
      return;
    }
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method ?? '', path: url });
      if (options.failFirst && !failedOnce.has(url)) {
        failedOnce.add(url);
        if (req.headers['x-test-first'] === '503') {
          res.writeHead(503, { 'Retry-After': '1' }).end();
        } else {
          req.socket.destroy();
        }
        return;
      }
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ answered: url }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    reset() {
      seen.length = 0;
      failedOnce.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Backend = Awaited<ReturnType<typeof startBackend>>;

/** One request on a connection of its own (no keep-alive reuse between tests); resolves with the status. */
function send(base: string, method: string, route: string, headers: Record<string, string> = {}) {
  const body = method === 'GET' || method === 'HEAD' ? undefined : '{"name":"Trip"}';
  return new Promise<number>((resolve, reject) => {
    const req = http.request(`${base}${route}`, {
      method,
      agent: false,
      headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const count = (backend: Backend, method: string, route: string) =>
  backend.seen.filter((s) => s.method === method && s.path === route).length;

describe('HAProxy in front of a process that drops the first request per path', () => {
  let dir: string;
  let backend: Backend;
  let proxy: RunningHaproxy;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tally-proxy-retries-'));
    backend = await startBackend({ failFirst: true });
    proxy = await startHaproxy({
      port: await freePort(),
      servers: [{ name: 'api1', role: 'api', port: backend.port }],
      dir,
    });
    await proxy.waitAllUp(30_000);
  });
  beforeEach(() => backend.reset());
  afterAll(async () => {
    await proxy?.stop();
    await backend?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('does not resend POST /v1/groups without an Idempotency-Key after an empty response', async () => {
    expect(await send(proxy.url, 'POST', '/v1/groups')).toBe(502);
    expect(count(backend, 'POST', '/v1/groups')).toBe(1);
  });

  it('resends POST /v1/groups carrying an Idempotency-Key, and the client gets the answer', async () => {
    expect(await send(proxy.url, 'POST', '/v1/groups', { 'Idempotency-Key': 'k-1' })).toBe(201);
    expect(count(backend, 'POST', '/v1/groups')).toBe(2);
  });

  it('resends GET and HEAD', async () => {
    expect(await send(proxy.url, 'GET', '/v1/groups')).toBe(200);
    expect(count(backend, 'GET', '/v1/groups')).toBe(2);
    expect(await send(proxy.url, 'HEAD', '/v1/me')).toBe(200);
    expect(count(backend, 'HEAD', '/v1/me')).toBe(2);
  });

  it('does not resend other unkeyed writes (PATCH, DELETE)', async () => {
    expect(await send(proxy.url, 'PATCH', '/v1/groups/grp_1')).toBe(502);
    expect(await send(proxy.url, 'DELETE', '/v1/groups/grp_1/members/usr_1')).toBe(502);
    expect(backend.seen).toHaveLength(2);
  });

  it('never resends /v1/auth/*, even with an Idempotency-Key (auth ignores it)', async () => {
    const headers = { 'Idempotency-Key': 'k-2' };
    expect(await send(proxy.url, 'POST', '/v1/auth/refresh', headers)).toBe(502);
    expect(await send(proxy.url, 'POST', '/V1/Auth/login', headers)).toBe(502);
    expect(backend.seen).toHaveLength(2);
  });

  it('resends a 503 only under the same rule', async () => {
    expect(await send(proxy.url, 'POST', '/v1/groups', { 'X-Test-First': '503' })).toBe(503);
    expect(count(backend, 'POST', '/v1/groups')).toBe(1);
    const keyed = { 'X-Test-First': '503', 'Idempotency-Key': 'k-3' };
    expect(await send(proxy.url, 'POST', '/v1/groups/grp_1/members', keyed)).toBe(201);
    expect(count(backend, 'POST', '/v1/groups/grp_1/members')).toBe(2);
  });
});

describe('HAProxy after a refused connection', () => {
  let dir: string;
  let live: Backend;
  let proxy: RunningHaproxy;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tally-proxy-retries-'));
    live = await startBackend({ failFirst: false });
    // api1's port has no listener: every connection to it is refused.
    const servers = [
      { name: 'api1', role: 'api' as const, port: await freePort() },
      { name: 'api2', role: 'api' as const, port: live.port },
    ];
    proxy = await startHaproxy({ port: await freePort(), servers, dir });
    // Routed to as if up, unchecked: the moment before health checks notice that a process died.
    // Checks off first: a check that failed between the two commands would mark api1 down again
    // (then nothing is sent to it, and nothing is redispatched).
    await haproxyCommand(proxy.statsSocket, 'disable health apis/api1');
    await haproxyCommand(proxy.statsSocket, 'set server apis/api1 health up');
    await proxy.waitAllUp(30_000);
  });
  afterAll(async () => {
    await proxy?.stop();
    await live?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resends unkeyed writes to another process: nothing had been sent', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push(await send(proxy.url, 'POST', `/v1/groups?n=${i}`));
    expect(statuses).toEqual([201, 201, 201, 201]);
    expect(live.seen).toHaveLength(4);
    // …after trying the refused api1 first (round robin): each of those was redispatched.
    const refused = await serverStats(proxy.statsSocket, 'api1');
    expect(Number(refused?.['wredis'])).toBeGreaterThanOrEqual(1);
  });
});
