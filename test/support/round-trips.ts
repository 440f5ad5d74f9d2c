/**
 * Counts the PostgreSQL round trips one HTTP request makes against a server started in-process
 * (test-server.ts). It wraps the pg driver's `Client.prototype.query` (the one knex loaded), and
 * attributes each query message to the request whose context sent it: the request carries its own
 * `X-Request-Id`, and the server runs the request inside `requestContext` with that id. Background
 * work (the relay, sweepers) has no request context and is not counted; nor are other requests.
 * One `query` call is one query message to the server, one round trip: BEGIN and COMMIT count.
 *
 *   const trips = watchRoundTrips(server);
 *   const { res, roundTrips, statements } = await trips.measure((id) =>
 *     server.request.get('/v1/me').set(user.auth).set('X-Request-Id', id));
 *   trips.stop();
 */
import { requestContext } from '@tally/api';
import type { TestServer } from './test-server';

type QueryArg = string | { text?: string; name?: string };
type PgClientClass = { prototype: { query: (...args: unknown[]) => unknown } };

let measureCounter = 0;

export function watchRoundTrips(server: TestServer) {
  const driver = (server.server.knex.client as { driver: { Client: PgClientClass } }).driver;
  const proto = driver.Client.prototype;
  const original = proto.query;
  const seen = new Map<string, string[]>();

  proto.query = function (this: unknown, ...args: unknown[]) {
    const id = requestContext.getStore()?.requestId;
    const list = id === undefined ? undefined : seen.get(id);
    if (list) {
      const q = args[0] as QueryArg;
      const text = typeof q === 'string' ? q : (q.name ? `[${q.name}] ` : '') + (q.text ?? '');
      list.push(text.replace(/\s+/g, ' ').slice(0, 120));
    }
    return original.apply(this, args);
  };

  return {
    /** Runs one request tagged with a fresh request id; its round trips are those sent under that id. */
    async measure<T>(send: (requestId: string) => PromiseLike<T>) {
      const id = `round-trips-${process.pid}-${++measureCounter}`;
      const statements: string[] = [];
      seen.set(id, statements);
      try {
        const res = await send(id);
        return { res, roundTrips: statements.length, statements: [...statements] };
      } finally {
        seen.delete(id);
      }
    },
    stop() {
      proto.query = original;
    },
  };
}

export type RoundTripWatch = ReturnType<typeof watchRoundTrips>;
