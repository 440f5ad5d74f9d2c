import { TallyClient } from '@tally/client';
import { Client } from 'pg';
import { type PgCluster, startPgCluster } from '../support/pg-cluster';
import { freePort, type ServerProcess, spawnServer } from '../support/server-process';
import { redisUrl } from '../support/test-database';
import { newKey, uniqueEmail } from '../support/test-server';
import { until } from '../support/until';
import { type ProcessUser, registerUser } from './http';

/**
 * Reads on a replica that never go back in time (issue 32, API.md §1 "Reads from replicas"): a real
 * API process writes on the primary and reads on a hot standby that applies WAL only after
 * `recovery_min_apply_delay`. A read that names the write's `X-Seq` in `X-Min-Seq` is never stale
 * (the primary answers while the replica is behind); a read that names nothing is the replica's,
 * stale while it waits, which shows the replica really serves them; once it has caught up it serves
 * the named reads too. A replica that is down costs nothing but the fallback.
 */

/** Longer than any stall between a write's answer and the next read on a loaded machine. */
const APPLY_DELAY = '5s';

let cluster: PgCluster;
let server: ServerProcess | undefined;
let user: ProcessUser;
let groupId: string;

type Answer = { status: number; seq: string | null; body: Record<string, unknown> };

async function call(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${server?.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...user.headers,
      ...(init.body !== undefined ? { 'Content-Type': 'application/json', 'Idempotency-Key': newKey() } : {}),
      ...init.headers,
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  const isJson = (res.headers.get('content-type') ?? '').includes('json');
  return {
    status: res.status,
    seq: res.headers.get('x-seq'),
    body: (isJson && text ? JSON.parse(text) : { text }) as Record<string, unknown>,
  } satisfies Answer;
}

/** `db_reads_total` of the server, by `served_by`. */
async function readsServed(url = server?.url): Promise<Record<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const [, by, n] of text.matchAll(/^db_reads_total\{served_by="([a-z_]+)"\} (\d+)/gm)) {
    counts[by as string] = Number(n);
  }
  return counts;
}

const expense = (description: string) => ({
  groupId,
  description,
  amount: 1000,
  currency: 'EUR',
  paidBy: user.id,
  split: { type: 'equal', between: [user.id] },
});

beforeAll(async () => {
  cluster = await startPgCluster();
  await cluster.query('create database tally');
  server = await spawnServer({
    ROLE: 'api',
    DATABASE_URL: cluster.urlOf(cluster.primary(), 'tally'),
    DATABASE_READ_URL: cluster.urlOf(cluster.standby(), 'tally'),
    REDIS_URL: redisUrl(),
  });
  user = await registerUser(server.url, 'Replica');
  const created = await call('/v1/groups', { method: 'POST', body: { name: 'Replica reads' } });
  groupId = created.body['id'] as string;
  // The replica has the schema and the group before it starts lagging on purpose.
  const replica = new Client({ connectionString: cluster.urlOf(cluster.standby(), 'tally') });
  await replica.connect();
  try {
    await until(
      async () =>
        (
          await replica
            .query<{ n: number }>('select count(*)::int as n from groups where id = $1', [groupId])
            .catch(() => ({ rows: [{ n: 0 }] }))
        ).rows[0]?.n === 1,
      { what: 'the group on the replica' },
    );
  } finally {
    await replica.end();
  }
  await cluster.query(`alter system set recovery_min_apply_delay = '${APPLY_DELAY}'`, [], cluster.standby());
  await cluster.query('select pg_reload_conf()', [], cluster.standby());
}, 120_000);

afterAll(async () => {
  await server?.kill('SIGKILL');
  await cluster?.stop();
});

test('a write answers its group and seq in X-Seq, and its replay the same', async () => {
  const key = newKey();
  const post = (k: string) =>
    fetch(`${server?.url}/v1/expenses`, {
      method: 'POST',
      headers: { ...user.headers, 'Content-Type': 'application/json', 'Idempotency-Key': k },
      body: JSON.stringify(expense('Seq of a write')),
    });
  const first = await post(key);
  const again = await post(key);
  expect(first.status).toBe(201);
  expect(first.headers.get('x-seq')).toMatch(new RegExp(`^${groupId}:[1-9][0-9]*$`));
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.headers.get('x-seq')).toBe(first.headers.get('x-seq'));
});

test('reads naming the write are never stale while the replica lags; reads naming nothing are the replica’s', async () => {
  const before = await readsServed();
  for (let i = 0; i < 3; i++) {
    const written = await call('/v1/expenses', { method: 'POST', body: expense(`Lagging ${i}`) });
    expect(written.status).toBe(201);
    const id = written.body['id'] as string;
    const seen = { 'X-Min-Seq': written.seq as string };
    const seq = Number((written.seq as string).split(':')[1]);

    const got = await call(`/v1/expenses/${id}`, { headers: seen });
    expect(got.status).toBe(200);
    expect(got.body['description']).toBe(`Lagging ${i}`);
    const list = await call(`/v1/groups/${groupId}/expenses?limit=100`, { headers: seen });
    expect((list.body['data'] as { id: string }[]).map((e) => e.id)).toContain(id);
    const searched = await call(`/v1/groups/${groupId}/expenses?q=Lagging`, { headers: seen });
    expect((searched.body['data'] as { id: string }[]).map((e) => e.id)).toContain(id);
    const balances = await call(`/v1/groups/${groupId}/balances`, { headers: seen });
    expect(balances.body['asOfSeq']).toBe(seq);
    const activity = await call('/v1/me/activity?limit=5', { headers: seen });
    expect((activity.body['data'] as { seq: number; groupId: string }[])[0]).toMatchObject({ groupId, seq });
    const csv = await call(`/v1/groups/${groupId}/export.csv`, { headers: seen });
    expect(csv.status).toBe(200);
    expect(csv.body['text']).toContain(`Lagging ${i}`);

    // The replica itself is behind: a read naming nothing shows it (what X-Min-Seq guards against).
    const stale = await call(`/v1/expenses/${id}`);
    expect(stale.status).toBe(404);
  }
  const after = await readsServed();
  expect((after['primary_behind'] ?? 0) - (before['primary_behind'] ?? 0)).toBe(15);
  expect((after['primary_stream'] ?? 0) - (before['primary_stream'] ?? 0)).toBe(3);
  expect((after['replica'] ?? 0) - (before['replica'] ?? 0)).toBe(3);
});

test('once the replica has replayed a write, it serves the reads that name it', async () => {
  const written = await call('/v1/expenses', { method: 'POST', body: expense('Caught up') });
  const id = written.body['id'] as string;
  await until(async () => (await call(`/v1/expenses/${id}`)).status === 200, {
    what: 'the replica to apply the write',
    timeoutMs: 30_000,
  });
  const before = await readsServed();
  const got = await call(`/v1/expenses/${id}`, { headers: { 'X-Min-Seq': written.seq as string } });
  expect(got.status).toBe(200);
  const after = await readsServed();
  expect((after['replica'] ?? 0) - (before['replica'] ?? 0)).toBe(1);
  expect(after['primary_behind'] ?? 0).toBe(before['primary_behind'] ?? 0);
});

test('the SDK sends the states it has seen: its reads after its own writes are never stale', async () => {
  const tally = new TallyClient({ baseUrl: server?.url as string, outbox: { autoStart: false } });
  const session = await tally.auth.register({
    email: uniqueEmail('Sdk replica'),
    name: 'Sdk',
    password: 'correct horse battery',
  });
  const me = session.user.id;
  // A new group: the lagging replica has not got it at all.
  const group = await tally.groups.create({ name: 'Seen by the SDK' });
  const created = await tally.expenses.create({
    groupId: group.id,
    description: 'By the SDK',
    amount: 500,
    currency: 'EUR',
    paidBy: me,
    split: { type: 'equal', between: [me] },
  });
  const seq = tally.http.seenStates.seqOf(group.id);
  expect(seq).toBe(2);
  expect((await tally.expenses.get(created.id)).description).toBe('By the SDK');
  expect((await tally.groups.balances(group.id)).asOfSeq).toBe(seq);
  expect((await tally.expenses.list(group.id)).data.map((e) => e.id)).toEqual([created.id]);
});

test('X-Min-Seq that is not <groupId>:<seq> entries is 400 min_seq_invalid', async () => {
  for (const header of [
    '17',
    `${groupId}:-1`,
    `${groupId}:x`,
    'usr_1:3',
    Array(21).fill(`${groupId}:1`).join(','),
  ]) {
    const res = await call(`/v1/groups/${groupId}/balances`, { headers: { 'X-Min-Seq': header } });
    expect(res.status).toBe(400);
    expect(res.body['code']).toBe('min_seq_invalid');
  }
});

test('a replica that is down leaves every read to the primary', async () => {
  const closedPort = await freePort();
  const other = await spawnServer({
    ROLE: 'api',
    DATABASE_URL: cluster.urlOf(cluster.primary(), 'tally'),
    DATABASE_READ_URL: `postgres://postgres@127.0.0.1:${closedPort}/tally`,
    REDIS_URL: redisUrl(),
  });
  try {
    const res = await fetch(`${other.url}/v1/groups/${groupId}/balances`, { headers: user.headers });
    expect(res.status).toBe(200);
    const served = await readsServed(other.url);
    expect(served['primary_replica_failed']).toBe(1);
  } finally {
    await other.kill('SIGKILL');
  }
});
