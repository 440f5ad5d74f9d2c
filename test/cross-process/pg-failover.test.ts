import { Client } from 'pg';
import { type PgCluster, startPgCluster } from '../support/pg-cluster';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { redisUrl } from '../support/test-database';
import { newKey } from '../support/test-server';
import { until } from '../support/until';
import { type ProcessUser, registerUser } from './http';

/**
 * Failover of the database under a stream of keyed writes (issue 32): a real API process on a
 * multi-host DATABASE_URL over a primary and a synchronous standby (test/support/pg-cluster.ts);
 * the primary is SIGKILLed, the standby promoted (the operator's `pg_ctl promote`), writing goes
 * on. Then the old primary rejoins as a standby (pg_rewind) and the same happens back. Each time:
 * no key applied twice, no acknowledged write lost, `seq` gapless in every group, and every answer
 * in between a `503` with `Retry-After`.
 */

const WRITERS_PER_GROUP = 2;
const GROUPS = 2;
/** Writes acknowledged after the failover before the writers stop: writing went on, not just once. */
const WRITES_AFTER = 20;

type Outcome = { status: number | 'network-error'; retryAfter: string | null };
type Acked = { key: string; id: string; groupId: string };

let cluster: PgCluster;
let server: ServerProcess | undefined;
let user: ProcessUser;
const groups: string[] = [];

beforeAll(async () => {
  cluster = await startPgCluster();
  await cluster.query('create database tally');
  server = await spawnServer({
    ROLE: 'api',
    DATABASE_URL: cluster.multiHostUrl('tally'),
    REDIS_URL: redisUrl(),
  });
  user = await registerUser(server.url, 'Failover');
  for (let g = 0; g < GROUPS; g++) {
    const res = await fetch(`${server.url}/v1/groups`, {
      method: 'POST',
      headers: { ...user.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `Failover ${g}` }),
    });
    groups.push(((await res.json()) as { id: string }).id);
  }
}, 120_000);

afterAll(async () => {
  await server?.kill('SIGKILL');
  await cluster?.stop();
});

/** One keyed POST /v1/expenses; the expense's description is its key, so duplicates can be counted. */
async function post(groupId: string, key: string): Promise<Outcome & { id?: string }> {
  try {
    const res = await fetch(`${server?.url}/v1/expenses`, {
      method: 'POST',
      headers: { ...user.headers, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify({
        groupId,
        description: key,
        amount: 1000,
        paidBy: user.id,
        split: { type: 'equal', between: [user.id] },
      }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json()) as { id?: string };
    return { status: res.status, retryAfter: res.headers.get('retry-after'), id: body.id };
  } catch {
    return { status: 'network-error', retryAfter: null };
  }
}

/**
 * Writers (each key retried until it is acknowledged, as a client does, after a short pause) while
 * `fault` runs; they stop once `WRITES_AFTER` writes sent after the fault's end were acknowledged.
 * Returns every outcome, every acknowledged write, and the milliseconds from the kill to the first
 * acknowledged write that was sent after it.
 */
async function writeThrough(fault: (killed: () => void) => Promise<void>) {
  promotedAt = undefined;
  const outcomes: Outcome[] = [];
  const acked: Acked[] = [];
  let killedAt: number | undefined;
  let firstWriteAfterKill: number | undefined;
  let faultOver = false;
  let ackedAfter = 0;
  const writer = async (groupId: string) => {
    while (!faultOver || ackedAfter < WRITES_AFTER) {
      const key = newKey();
      for (;;) {
        const sentAt = Date.now();
        const sentAfterFault = faultOver;
        const outcome = await post(groupId, key);
        outcomes.push({ status: outcome.status, retryAfter: outcome.retryAfter });
        if (outcome.status === 201 && outcome.id) {
          acked.push({ key, id: outcome.id, groupId });
          if (killedAt !== undefined && sentAt >= killedAt && firstWriteAfterKill === undefined)
            firstWriteAfterKill = Date.now();
          if (sentAfterFault) ackedAfter++;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  const writers = groups.flatMap((groupId) =>
    Array.from({ length: WRITERS_PER_GROUP }, () => writer(groupId)),
  );
  // Some writes before the fault, so that it meets writes in flight.
  await until(() => acked.length >= 20, { what: '20 writes before the fault', timeoutMs: 30_000 });
  await fault(() => {
    killedAt = Date.now();
  });
  faultOver = true;
  await Promise.all(writers);
  if (killedAt === undefined || firstWriteAfterKill === undefined) throw new Error('no write after the kill');
  return {
    outcomes,
    acked,
    killToFirstWriteMs: firstWriteAfterKill - killedAt,
    promotionToFirstWriteMs: firstWriteAfterKill - (promotedAt ?? killedAt),
  };
}

/** Checks what the primary holds against what the clients were told. */
async function expectNothingLostOrDoubled(acked: Acked[]) {
  const client = new Client({ connectionString: cluster.urlOf(cluster.primary(), 'tally') });
  await client.connect();
  try {
    const { rows: expenses } = await client.query<{ id: string; description: string }>(
      'select id, description from expenses where group_id = any($1)',
      [groups],
    );
    const byKey = new Map<string, number>();
    for (const row of expenses) byKey.set(row.description, (byKey.get(row.description) ?? 0) + 1);
    expect([...byKey.entries()].filter(([, count]) => count > 1)).toEqual([]);
    const ids = new Set(expenses.map((row) => row.id));
    expect(acked.filter((write) => !ids.has(write.id))).toEqual([]);
    for (const groupId of groups) {
      const { rows } = await client.query<{ seq: string }>(
        'select seq from events where group_id = $1 order by seq',
        [groupId],
      );
      const seqs = rows.map((row) => Number(row.seq));
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
      const { rows: last } = await client.query<{ last_seq: string }>(
        'select last_seq from groups where id = $1',
        [groupId],
      );
      expect(Number(last[0]?.last_seq)).toBe(seqs.length);
    }
  } finally {
    await client.end();
  }
}

/** Every answer but a 201 was a 503 with Retry-After: never a 500, never a dropped connection. */
function expectOnly503sInBetween(outcomes: Outcome[]) {
  const other = outcomes.filter((o) => o.status !== 201 && !(o.status === 503 && o.retryAfter !== null));
  expect(other).toEqual([]);
  return outcomes.filter((o) => o.status === 503).length;
}

/** SIGKILL of the primary, and the standby promoted a second later (an operator or CloudNativePG deciding). */
const killAndPromote = async (killed: () => void) => {
  await cluster.killPrimary();
  killed();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  promotedAt = Date.now();
  await cluster.promote();
};
let promotedAt: number | undefined;

it('loses and doubles nothing when the primary is killed and the standby promoted, and back again', async () => {
  const first = await writeThrough(killAndPromote);
  const refused = expectOnly503sInBetween(first.outcomes);
  await expectNothingLostOrDoubled(first.acked);
  console.log(
    `failover 1: kill → first write ${first.killToFirstWriteMs} ms (pg_ctl promote → first write ${first.promotionToFirstWriteMs} ms); ${first.acked.length} writes acknowledged, ${refused} answers 503`,
  );

  // The old primary rewound and back as the synchronous standby, while writes go on.
  const second = await writeThrough(async (killed) => {
    await cluster.rejoin();
    await killAndPromote(killed);
  });
  const refusedBack = expectOnly503sInBetween(second.outcomes);
  await expectNothingLostOrDoubled([...first.acked, ...second.acked]);
  console.log(
    `failover 2 (back, after pg_rewind): kill → first write ${second.killToFirstWriteMs} ms (pg_ctl promote → first write ${second.promotionToFirstWriteMs} ms); ${second.acked.length} writes acknowledged, ${refusedBack} answers 503`,
  );
}, 180_000);
