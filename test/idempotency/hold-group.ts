/**
 * Shared by the idempotency tests (not a test file itself): holding a group's row lock so that a
 * write to the group stays inside its transaction, and reading the idempotency outcomes.
 */
import type { Knex } from 'knex';
import { redisUrl } from '../support/test-database';
import type { TestServer } from '../support/test-server';
import { until } from '../support/until';

/**
 * The two idempotency stores every idempotency suite runs against (`describe.each`): Redis (the
 * fleet) and the in-process store of the embedded default.
 */
export const BOTH_STORES = [
  { store: 'Redis', env: (): Record<string, string> => ({ REDIS_URL: redisUrl() }) },
  { store: 'in-memory', env: (): Record<string, string> => ({}) },
];

/**
 * Locks the group's row in a transaction of the test's own. `waitedOn()` resolves once some other
 * session of this database waits for a lock (the write is inside its transaction, its key claimed);
 * `release()` commits and lets it go on.
 */
export async function holdGroupLock(knex: Knex, groupId: string) {
  const trx = await knex.transaction();
  await trx('groups').where({ id: groupId }).forUpdate().first();
  return {
    waitedOn: () =>
      until(async () => {
        const { rows } = await knex.raw<{ rows: { n: number }[] }>(
          `select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
        );
        return (rows[0]?.n ?? 0) > 0;
      }, 'a write to wait for the group lock'),
    release: async () => {
      if (!trx.isCompleted()) await trx.commit();
    },
  };
}

/** The server's `idempotency_outcomes_total{outcome}` counter, read from `/metrics`. */
export async function outcomeCount(t: TestServer, outcome: string): Promise<number> {
  const res = await t.request.get('/metrics');
  const line = res.text
    .split('\n')
    .find((l) => l.startsWith(`idempotency_outcomes_total{outcome="${outcome}"}`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}
