/**
 * Counts what this process sends to one Redis server: socket writes (a client's round trips: ioredis
 * writes one command, or one whole pipeline, per write and then waits for the replies) and the
 * commands inside them. It wraps `net.Socket.prototype.write` for sockets connected to `port`, so it
 * sees every ioredis connection of an in-process server without reaching into it.
 *
 *   const trips = countRedisRoundTrips(port, { ignore: isLivenessBeat });
 *   … requests …
 *   const { writes, commands } = trips.stop();
 */
import { Socket } from 'node:net';

export type RedisTraffic = { writes: number; commands: string[] };

/** One command as sent: its name (upper case) and first argument. */
export type SentCommand = { name: string; first: string | undefined };

/** A process's liveness heartbeat (`SET idem:alive:<id> …`), which runs on its own timer. */
export const isLivenessBeat = (c: SentCommand): boolean =>
  c.name === 'SET' && (c.first ?? '').startsWith('idem:alive:');

/** The commands of the RESP arrays in one write (`*n\r\n$len\r\narg\r\n…`, as clients send them). */
export function commandsIn(chunk: Buffer): SentCommand[] {
  const sent: SentCommand[] = [];
  let at = 0;
  const line = (): string => {
    const end = chunk.indexOf('\r\n', at);
    if (end < 0) throw new Error('a RESP line without its end');
    const text = chunk.toString('latin1', at, end);
    at = end + 2;
    return text;
  };
  while (at < chunk.length) {
    const header = line();
    if (!header.startsWith('*')) throw new Error(`not a RESP command: ${header}`);
    const count = Number(header.slice(1));
    const args: string[] = [];
    for (let i = 0; i < count; i++) {
      const length = Number(line().slice(1));
      if (i < 2) args.push(chunk.toString('latin1', at, at + length));
      at += length + 2;
    }
    sent.push({ name: (args[0] ?? '').toUpperCase(), first: args[1] });
  }
  return sent;
}

/**
 * Starts counting writes to the Redis server on `port`. A write whose every command `ignore` matches
 * (e.g. `isLivenessBeat`, a heartbeat on its own timer) is left out.
 */
export function countRedisRoundTrips(port: number, options: { ignore?: (c: SentCommand) => boolean } = {}) {
  const traffic: RedisTraffic = { writes: 0, commands: [] };
  const original = Socket.prototype.write;
  const patched = function (this: Socket, chunk: unknown, ...rest: unknown[]) {
    if (this.remotePort === port && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) {
      const sent = commandsIn(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
      const ignore = options.ignore;
      if (!ignore || !sent.every(ignore)) {
        traffic.writes += 1;
        traffic.commands.push(...sent.map((c) => c.name));
      }
    }
    return (original as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  };
  Socket.prototype.write = patched as typeof Socket.prototype.write;
  return {
    /** What was counted so far, without stopping. */
    snapshot: (): RedisTraffic => ({ writes: traffic.writes, commands: [...traffic.commands] }),
    /** Restores the socket's own `write` and returns the counts. */
    stop(): RedisTraffic {
      if (Socket.prototype.write === patched) Socket.prototype.write = original;
      return traffic;
    },
  };
}
