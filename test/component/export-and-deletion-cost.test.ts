/**
 * API.md §9.1 and §11: what an export and an account deletion cost. The statements a request sends
 * are caught as the server's knex sends them and explained on the same database: no statement of
 * the CSV export reads more than a page of a group's records (the people are collected page by
 * page too), and `DELETE /v1/me` reads the caller's balances by key, never the whole table. A user
 * runs at most `EXPORTS_PER_USER` downloads at once.
 */
import http from 'node:http';
import type { Knex } from 'knex';
import { EXPORTS_PER_USER } from '../../apps/api/src/bounds';
import { EXPORT_PAGE_ROWS } from '../../apps/api/src/export/keyset-pages';
import { seedExpenses } from '../support/export-load';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';
import { expectProblem, postExpense } from './component-helpers';

type Sent = { sql: string; bindings: readonly Knex.Value[] };

/** The statements the server's knex sends while `run` runs. */
async function statementsOf(t: TestServer, run: () => Promise<unknown>): Promise<Sent[]> {
  const sent: Sent[] = [];
  const listener = (q: { sql: string; bindings?: readonly Knex.Value[] }) =>
    sent.push({ sql: q.sql, bindings: q.bindings ?? [] });
  t.server.knex.on('query', listener);
  try {
    await run();
  } finally {
    t.server.knex.removeListener('query', listener);
  }
  return sent;
}

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Actual Rows'?: number; Plans?: PlanNode[] };
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** Every node of the plan of `statement` (with `analyze`, run: selects only). */
async function planOf(knex: Knex, statement: Sent, analyze: boolean): Promise<PlanNode[]> {
  // The event carries PostgreSQL's `$n` placeholders: back to knex's `?`, each with its value.
  const values: Knex.Value[] = [];
  const sql = statement.sql.replace(/\$(\d+)/g, (_match, n: string) => {
    values.push(statement.bindings[Number(n) - 1] as Knex.Value);
    return '?';
  });
  const { rows } = (await knex.raw(
    `explain (${analyze ? 'analyze, ' : ''}format json) ${sql}`,
    values as Knex.RawBinding[],
  )) as { rows: { 'QUERY PLAN': { Plan: PlanNode }[] }[] };
  const plan = rows[0]?.['QUERY PLAN'][0]?.Plan;
  if (!plan) throw new Error(`no plan for ${statement.sql}`);
  return nodesOf(plan);
}

describe('the cost of exports and of deleting an account', () => {
  let t: TestServer;
  let knex: Knex;
  let ada: TestUser;
  let bob: TestUser;
  /** Ada's and Bob's, with 12,000 expenses. */
  let bigGroup: string;

  beforeAll(async () => {
    t = await startTestServer();
    knex = (t.db as NonNullable<TestServer['db']>).knex;
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    bigGroup = await t.createGroup(ada, [bob], { currency: 'USD' });
    await seedExpenses(knex, { groupId: bigGroup, payerId: ada.id, otherId: bob.id, count: 12_000 });
    await knex.raw('analyze expenses');
  }, 90_000);
  afterAll(async () => {
    await t?.stop();
  });

  it('the CSV export reads a group of 12,000 expenses in pages: no statement reads more than a page', async () => {
    let bytes = 0;
    const sent = await statementsOf(t, async () => {
      const res = await fetch(`${t.url}/v1/groups/${bigGroup}/export.csv`, { headers: ada.auth });
      expect(res.status).toBe(200);
      bytes = (await res.arrayBuffer()).byteLength;
    });
    expect(bytes).toBeGreaterThan(1_000_000);
    const reads = sent.filter((s) => /\bfrom (expenses|settlements)\b/.test(s.sql));
    let most = 0;
    for (const read of reads) {
      for (const node of await planOf(knex, read, true)) {
        if (node['Relation Name'] === 'expenses' || node['Relation Name'] === 'settlements') {
          most = Math.max(most, node['Actual Rows'] ?? 0);
        }
      }
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(EXPORT_PAGE_ROWS);
    // Twice (the people, then the rows) 12 pages of expenses and one of settlements.
    expect(reads.length).toBeGreaterThanOrEqual(2 * (12 + 1));
  });

  it('DELETE /v1/me reads the caller’s nets and tokens by key, not the balances and refresh_tokens tables', async () => {
    const cy = await t.register('Cy');
    const groupId = await t.createGroup(cy, [bob], { currency: 'USD' });
    expect((await postExpense(t, cy, groupId, cy, 1000, [cy, bob])).status).toBe(201);
    // Settled: Cy may go.
    expect((await postExpense(t, bob, groupId, bob, 1000, [cy, bob])).status).toBe(201);
    // Everyone else's rows: many balances in another group, many refresh tokens of another user.
    const other = await t.createGroup(bob, [], { currency: 'USD' });
    await knex.raw(
      `insert into balances (group_id, currency, user_id, net)
       select ?, 'USD', 'usr_other_' || i, case when i % 2 = 0 then 1 else -1 end from generate_series(1, 30000) i`,
      [other],
    );
    await knex.raw(
      `insert into refresh_tokens (id, token_hash, family_id, user_id, expires_at, created_at)
       select 'rtk_seed_' || i, md5('seed' || i), 'fam_seed_' || (i / 2), ?, now() + interval '30 days', now()
         from generate_series(1, 30000) i`,
      [bob.id],
    );
    await knex.raw('analyze balances');
    await knex.raw('analyze refresh_tokens');

    const sent = await statementsOf(t, async () => {
      const res = await fetch(`${t.url}/v1/me`, { method: 'DELETE', headers: cy.auth });
      expect(res.status).toBe(204);
    });
    const scanned: string[] = [];
    for (const statement of sent.filter((s) => /\b(balances|refresh_tokens)\b/.test(s.sql))) {
      for (const node of await planOf(knex, statement, false)) {
        if (
          node['Node Type'] === 'Seq Scan' &&
          ['balances', 'refresh_tokens'].includes(node['Relation Name'] ?? '')
        ) {
          scanned.push(node['Relation Name'] as string);
        }
      }
    }
    expect(sent.some((s) => /\bbalances\b/.test(s.sql))).toBe(true);
    expect(scanned).toEqual([]);
    // And it did its work: the sessions and their tokens are over.
    const live = await knex.raw(
      'select count(*)::int as n from refresh_tokens where user_id = ? and revoked_at is null',
      [cy.id],
    );
    expect(live.rows[0].n).toBe(0);
  });

  it(`runs at most ${EXPORTS_PER_USER} downloads of one user at once; one more is 429 until one ends`, async () => {
    const dee = await t.register('Dee');
    await t.request.post(`/v1/groups/${bigGroup}/members`).set(ada.auth).send({ userId: dee.id }).expect(201);
    const groupId = await t.createGroup(dee, [], { currency: 'USD' });
    // Dee's data holds the big group: about 7 MB of JSON, more than the sockets' buffers hold, so a
    // download that is not read stays open.
    const held: http.ClientRequest[] = [];
    const hold = () =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.get(`${t.url}/v1/me/export`, { headers: dee.auth }, (res) => {
          res.pause();
          resolve(res);
        });
        req.on('error', () => {});
        held.push(req);
        setTimeout(() => reject(new Error('no answer')), 30_000).unref();
      });
    try {
      const first = await Promise.all(Array.from({ length: EXPORTS_PER_USER }, hold));
      expect(first.map((r) => r.statusCode)).toEqual(Array(EXPORTS_PER_USER).fill(200));
      const refused = await t.request.get(`/v1/groups/${groupId}/export.csv`).set(dee.auth);
      expectProblem(refused, 429, 'rate_limited');
      expect(refused.body.limit).toEqual({ name: 'exportsPerUser', max: EXPORTS_PER_USER });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // Another user is not affected.
      const bobs = await t.createGroup(bob);
      expect((await t.request.get(`/v1/groups/${bobs}/export.csv`).set(bob.auth)).status).toBe(200);
      // One download given up: room again.
      held[0]?.destroy();
      await until(async () => (await t.request.get('/v1/me/export').set(dee.auth)).status === 200);
    } finally {
      for (const req of held) req.destroy();
    }
  });
});
