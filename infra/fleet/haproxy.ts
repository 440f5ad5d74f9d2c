/**
 * HAProxy for the local fleet: the configuration (one generator, also used by the retry tests in
 * test/cross-process/proxy-retries.test.ts), starting it, and reading its admin socket.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** One server behind HAProxy: API processes serve HTTP, gateways serve /v1/ws. */
export type ProxiedServer = { name: string; role: 'api' | 'gateway'; port: number };

export function findHaproxy(): string {
  for (const candidate of ['haproxy', '/usr/sbin/haproxy', '/usr/local/sbin/haproxy']) {
    const found = spawnSync(candidate, ['-v'], { stdio: 'ignore' });
    if (found.status === 0) return candidate;
  }
  throw new Error(
    'HAProxy is not installed: install the Debian package `haproxy` (apt-get install -y haproxy).',
  );
}

/**
 * The configuration: `port` on 127.0.0.1, HTTP round robin over the API servers with health checks
 * on /readyz, /v1/ws to the gateways with a sticky cookie, and the retry rule below.
 */
export function haproxyConfig(port: number, servers: ProxiedServer[], statsSocket: string): string {
  const apis = servers.filter((s) => s.role === 'api');
  const gateways = servers.filter((s) => s.role === 'gateway');
  return `global
  # Two file descriptors per proxied connection must fit under the usual 20000 limit.
  maxconn 8000
  stats socket ${statsSocket} mode 600 level admin

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  timeout http-keep-alive 10s
  option redispatch 1
  retries 3
  # A draining or dead API process answers 503 (or drops the connection) without executing the
  # request; HAProxy resends it to another one, but only where that is safe (see the frontend).
  retry-on conn-failure empty-response 503
  option http-buffer-request
  default-server inter 500ms fall 2 rise 2

frontend public
  bind 127.0.0.1:${port}
  option forwardfor
  # Resending a request that reached a server is safe only if a second execution cannot have a
  # second effect: safe methods, and writes carrying an Idempotency-Key (the API executes a keyed
  # write at most once, and refuses a malformed key before executing anything). /v1/auth/* ignores
  # the key: a resent POST /v1/auth/refresh would present a used refresh token and revoke the
  # family. Everything else is resent only after a connection failure (nothing was sent):
  # disable-l7-retry leaves conn-failure retries on and turns off empty-response and 503.
  acl safe_method method GET HEAD OPTIONS
  acl keyed req.hdr_cnt(idempotency-key) gt 0
  acl auth_route path_beg -i /v1/auth
  http-request disable-l7-retry if !safe_method !keyed || !safe_method auth_route
  acl websocket path_beg /v1/ws
  use_backend gateways if websocket
  default_backend apis

backend apis
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
${apis.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check`).join('\n')}

backend gateways
  balance roundrobin
  # Sticky: a client that returns the cookie comes back to the same gateway.
  cookie TALLY_GW insert indirect nocache
  option httpchk GET /readyz
  http-check expect status 200
${gateways.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check cookie ${s.name}`).join('\n')}
`;
}

/** One command on HAProxy's admin socket; resolves with its whole answer. */
export function haproxyCommand(statsSocket: string, command: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = net.createConnection(statsSocket);
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
    });
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
    socket.write(`${command}\n`);
  });
}

/** `show stat` of one server, by column name (`status`, `econ`, `eresp`, `wretr`, …). */
export async function serverStats(
  statsSocket: string,
  server: string,
): Promise<Record<string, string> | undefined> {
  const lines = (await haproxyCommand(statsSocket, 'show stat')).split('\n');
  const header = (lines[0] ?? '').replace(/^# /, '').split(',');
  const row = lines.find((l) => l.split(',')[1] === server)?.split(',');
  if (!row) return undefined;
  return Object.fromEntries(header.map((name, i) => [name, row[i] ?? '']));
}

/** Whether HAProxy currently routes to `server` (up, or not health-checked at all). */
export async function haproxySees(statsSocket: string, server: string): Promise<boolean> {
  const status = (await serverStats(statsSocket, server))?.['status'] ?? '';
  return status.startsWith('UP') || status === 'no check';
}

export type RunningHaproxy = {
  url: string;
  statsSocket: string;
  /** Resolves when every server is UP; rejects if HAProxy exits or `timeoutMs` passes. */
  waitAllUp(timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
};

/** Writes the configuration into `dir` and starts HAProxy in the foreground (`-db`). */
export async function startHaproxy(options: {
  port: number;
  servers: ProxiedServer[];
  dir: string;
  log?: (line: string) => void;
}): Promise<RunningHaproxy> {
  const statsSocket = path.join(options.dir, 'haproxy.sock');
  const configFile = path.join(options.dir, 'haproxy.cfg');
  writeFileSync(configFile, haproxyConfig(options.port, options.servers, statsSocket));
  const lb: ChildProcess = spawn(findHaproxy(), ['-db', '-f', configFile], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  lb.stderr?.on('data', (chunk: Buffer) => options.log?.(`[haproxy] ${chunk.toString().trim()}`));
  let exit: string | undefined;
  lb.once('exit', (code, signal) => {
    exit = `HAProxy exited (${signal ?? `code ${code}`}); see its output above`;
  });
  const gone = new Promise<void>((resolve) => lb.once('exit', () => resolve()));
  // Ready once its admin socket answers (it binds the public port before that).
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (exit) throw new Error(exit);
    const answered = await haproxyCommand(statsSocket, 'show info').then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) {
      lb.kill('SIGKILL');
      throw new Error('HAProxy did not open its admin socket within 10 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${options.port}`,
    statsSocket,
    async waitAllUp(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (exit) throw new Error(exit);
        const up = await Promise.all(options.servers.map((s) => haproxySees(statsSocket, s.name))).catch(
          () => [false],
        );
        if (up.every(Boolean)) return;
        if (Date.now() > deadline)
          throw new Error(`HAProxy did not see every server up within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      if (lb.exitCode === null && lb.signalCode === null) lb.kill('SIGTERM');
      await gone;
    },
  };
}
