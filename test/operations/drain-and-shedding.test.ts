import http from 'node:http';
import { registerUser } from '../cross-process/http';
import { spawnServer } from '../support/server-process';
import { ensurePostgres } from '../support/services';
import { createTestDatabase, redisUrl } from '../support/test-database';
import { newKey, startTestServer } from '../support/test-server';
import { UNTIL_TIMEOUT_MS, until } from '../support/until';
import { lockWaiters } from './operations-helpers';

/** A request on a fresh connection: a pooled keep-alive socket may be the one the drain just closed. */
function freshGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const req = http.get(url, { agent: false, headers }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
    },
  );
}

describe('graceful shutdown of a real process (SIGTERM)', () => {
  it('turns /readyz 503, answers new work 503 with Retry-After, finishes in-flight requests, exits 0', async () => {
    const db = await createTestDatabase();
    const server = await spawnServer({
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl(),
      // Longer than the test takes: the write in flight finishes by itself, however slow the machine.
      SHUTDOWN_TIMEOUT_SECONDS: '120',
      // The write waits for the held lock as long as the test holds it (past the 2 s default).
      DB_LOCK_TIMEOUT_MS: '30000',
      DB_STATEMENT_TIMEOUT_MS: '30000',
    });
    try {
      const ada = await registerUser(server.url, 'Ada');
      const headers = { ...ada.headers, 'Content-Type': 'application/json' };
      const group = (await (
        await fetch(`${server.url}/v1/groups`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: 'Drain' }),
        })
      ).json()) as { id: string };
      // Hold the group's row lock so that a write stays in flight across the SIGTERM.
      const trx = await db.knex.transaction();
      try {
        await trx('groups').where({ id: group.id }).forUpdate().first();
        const inFlight = fetch(`${server.url}/v1/expenses`, {
          method: 'POST',
          headers: { ...headers, 'Idempotency-Key': newKey() },
          body: JSON.stringify({
            groupId: group.id,
            description: 'Last order',
            amount: 700,
            paidBy: ada.id,
            split: { type: 'equal', between: [ada.id] },
          }),
        });
        // In flight: it waits for the lock. Ready until the signal; then 503 as soon as it drains.
        await until(
          async () => (await lockWaiters(db.knex, db.name)) > 0,
          'the write to wait for the group lock',
        );
        expect((await freshGet(`${server.url}/readyz`)).status).toBe(200);
        server.child.kill('SIGTERM');
        await until(
          async () => (await freshGet(`${server.url}/readyz`)).status === 503,
          '/readyz to answer 503 after the SIGTERM',
        );
        const late = await freshGet(`${server.url}/v1/groups`, headers);
        expect(late.status).toBe(503);
        expect((JSON.parse(late.body) as { code: string }).code).toBe('unavailable');
        expect(Number(late.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(late.headers.connection).toBe('close');

        await trx.commit();
        const finished = await inFlight;
        expect(finished.status).toBe(201);
        const exit = await server.exited;
        expect(exit).toEqual({ code: 0, signal: null });
        expect(await db.knex('expenses').where({ group_id: group.id })).toHaveLength(1);
      } finally {
        if (!trx.isCompleted()) await trx.rollback();
      }
    } finally {
      await server.kill('SIGKILL');
      await db.drop();
    }
  });
});

describe('load shedding', () => {
  it('answers 503 unavailable with Retry-After when too many requests are in flight, but not probes', async () => {
    // The held write waits for the lock as long as the test holds it (past the 2 s default).
    const t = await startTestServer({ env: { MAX_IN_FLIGHT: '1', DB_LOCK_TIMEOUT_MS: '30000' } });
    try {
      const ada = await t.register('Ada');
      const groupId = await t.createGroup(ada);
      const db = t.db!;
      const trx = await db.knex.transaction();
      await trx('groups').where({ id: groupId }).forUpdate().first();
      const held = t.request
        .post('/v1/expenses')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({
          groupId,
          description: 'Held',
          amount: 100,
          paidBy: ada.id,
          split: { type: 'equal', between: [ada.id] },
        })
        .then((r) => r);
      // In flight: it waits for the lock, holding the one slot.
      await until(
        async () => (await lockWaiters(db.knex, db.name)) > 0,
        'the write to wait for the group lock',
      );
      const shed = await t.request.get('/v1/groups').set(ada.auth);
      expect(shed.status).toBe(503);
      expect(shed.body.code).toBe('unavailable');
      expect(shed.headers['retry-after']).toBe('1');
      expect((await t.request.get('/healthz')).status).toBe(200);
      await trx.commit();
      expect((await held).status).toBe(201);
      expect((await t.request.get('/v1/groups').set(ada.auth)).status).toBe(200);
    } finally {
      await t.stop();
    }
  });
});

describe('when PostgreSQL goes away', () => {
  it('answers 503 unavailable quickly, never a 500 or a hang, and readiness fails', async () => {
    const pg = await ensurePostgres({ ephemeral: true });
    const t = await startTestServer({ env: { DATABASE_URL: pg.url } });
    try {
      const ada = await t.register('Ada');
      await pg.stop();
      // Once the pool gives up (3 s), not a hang: a deadline ten times that fails a hang, however
      // slow the machine (how fast the answer comes is for the benchmarks to measure).
      const res = await t.request.get('/v1/groups').set(ada.auth).timeout(UNTIL_TIMEOUT_MS);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('unavailable');
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|select|stack/i);
      expect((await t.request.get('/readyz')).status).toBe(503);
    } finally {
      await t.stop().catch(() => {});
    }
  });
});
