/**
 * API.md §15: the history of an expense or a settlement, from the group's event log: every version
 * with who, when, its version and ETag, and the exact field-by-field diff against the one before;
 * readable by the group's members (a deleted record too), `404` for anyone else; paged by `seq`,
 * diffs exact across a page boundary; `truncated` once retention took the oldest versions; and the
 * statement reads the record's events by `events_expense_idx`, not the group's whole log.
 */
import type { Knex } from 'knex';
import {
  type HistoryEntry,
  type HistoryPage,
  historyStatement,
} from '../../apps/api/src/history/history.service';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { expectProblem, expectValidationFailed, postExpense, postSettlement } from './component-helpers';

describe('history of a record', () => {
  let t: TestServer;
  let knex: Knex;
  let ada: TestUser;
  let bob: TestUser;
  let eve: TestUser;
  let groupId: string;

  beforeAll(async () => {
    t = await startTestServer();
    knex = (t.db as NonNullable<TestServer['db']>).knex;
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    eve = await t.register('Eve');
    groupId = await t.createGroup(ada, [bob], { currency: 'USD' });
  });
  afterAll(async () => {
    await t.stop();
  });

  const history = (user: TestUser, path: string, query: Record<string, string> = {}) =>
    t.request.get(path).query(query).set(user.auth);
  const patch = async (user: TestUser, id: string, body: Record<string, unknown>) => {
    const res = await t.request
      .patch(`/v1/expenses/${id}`)
      .set(user.auth)
      .set('Idempotency-Key', newKey())
      .send(body);
    expect(res.status).toBe(200);
    return res;
  };
  const remove = async (user: TestUser, path: string) => {
    const res = await t.request.delete(path).set(user.auth).set('Idempotency-Key', newKey());
    expect(res.status).toBe(204);
  };

  /** Ada's expense of 6.99, then Bob: 8.99, then Ada: a new description and an exact split, then Bob deletes it. */
  async function editedExpense(): Promise<string> {
    const created = await postExpense(t, ada, groupId, ada, 699, [ada, bob]);
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    await patch(bob, id, { amount: 899 });
    await patch(ada, id, {
      description: 'Team dinner',
      split: {
        type: 'exact',
        between: [
          { userId: ada.id, amount: 400 },
          { userId: bob.id, amount: 499 },
        ],
      },
    });
    await remove(bob, `/v1/expenses/${id}`);
    return id;
  }

  it('lists create, two edits and the delete, each with who, when, version, ETag and the exact diff', async () => {
    const id = await editedExpense();
    const res = await history(ada, `/v1/expenses/${id}/history`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    const page = res.body as HistoryPage;
    expect(page.nextCursor).toBeNull();
    expect(page.truncated).toBe(false);
    expect(
      page.data.map(({ action, actorId, actorName, version, etag, changes }) => ({
        action,
        actorId,
        actorName,
        version,
        etag,
        changes,
      })),
    ).toEqual([
      { action: 'created', actorId: ada.id, actorName: 'Ada', version: 1, etag: '"v1"', changes: null },
      {
        action: 'updated',
        actorId: bob.id,
        actorName: 'Bob',
        version: 2,
        etag: '"v2"',
        changes: [
          { field: 'amount', from: 699, to: 899 },
          { field: 'paidBy', userId: ada.id, from: 699, to: 899 },
          { field: 'shares', userId: ada.id, from: 350, to: 450 },
          { field: 'shares', userId: bob.id, from: 349, to: 449 },
        ],
      },
      {
        action: 'updated',
        actorId: ada.id,
        actorName: 'Ada',
        version: 3,
        etag: '"v3"',
        changes: [
          { field: 'description', from: 'Dinner', to: 'Team dinner' },
          { field: 'split.type', from: 'equal', to: 'exact' },
          { field: 'split.between', userId: ada.id, from: true, to: 400 },
          { field: 'split.between', userId: bob.id, from: true, to: 499 },
          { field: 'shares', userId: ada.id, from: 450, to: 400 },
          { field: 'shares', userId: bob.id, from: 449, to: 499 },
        ],
      },
      { action: 'deleted', actorId: bob.id, actorName: 'Bob', version: 4, etag: '"v4"', changes: [] },
    ]);
    // Each version is the record as the change left it, in seq order, at its event's time.
    const seqs = page.data.map((v) => v.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(page.data[1]?.record).toMatchObject({ id, amount: 899, description: 'Dinner', version: 2 });
    expect(page.data[3]?.record).toMatchObject({ id, amount: 899, description: 'Team dinner', version: 4 });
    const log = await t.request.get(`/v1/groups/${groupId}/events?limit=100`).set(ada.auth);
    const events = (log.body.data as { id: string; seq: number; occurredAt: string }[]).filter((e) =>
      seqs.includes(e.seq),
    );
    expect(page.data.map((v) => [v.eventId, v.occurredAt])).toEqual(events.map((e) => [e.id, e.occurredAt]));
  });

  it('shows a restore, with the version the restore gave', async () => {
    const id = await editedExpense();
    const restored = await t.request
      .post(`/v1/expenses/${id}/restore`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey());
    expect(restored.status).toBe(200);
    const page = (await history(bob, `/v1/expenses/${id}/history`)).body as HistoryPage;
    expect(page.data.map((v) => [v.action, v.version, v.changes?.length ?? null])).toEqual([
      ['created', 1, null],
      ['updated', 2, 4],
      ['updated', 3, 6],
      ['deleted', 4, 0],
      ['restored', 5, 0],
    ]);
    expect(restored.headers.etag).toBe(page.data[4]?.etag);
  });

  it('lists a settlement’s creation and undo; settlements have no version', async () => {
    const settlement = await postSettlement(t, bob, groupId, bob, ada, 500, { note: 'cash' });
    expect(settlement.status).toBe(201);
    const path = `/v1/settlements/${settlement.body.id}`;
    await remove(ada, path);
    const res = await history(bob, `${path}/history`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        {
          seq: expect.any(Number),
          eventId: expect.stringMatching(/^evt_/),
          action: 'created',
          actorId: bob.id,
          actorName: 'Bob',
          occurredAt: expect.any(String),
          version: null,
          etag: null,
          record: settlement.body,
          changes: null,
        },
        {
          seq: expect.any(Number),
          eventId: expect.stringMatching(/^evt_/),
          action: 'deleted',
          actorId: ada.id,
          actorName: 'Ada',
          occurredAt: expect.any(String),
          version: null,
          etag: null,
          record: settlement.body,
          changes: [],
        },
      ],
      nextCursor: null,
      truncated: false,
    });
  });

  it('is 404 for a non-member and an unknown id, as reading the record is; members read a deleted one', async () => {
    const id = await editedExpense();
    const settlement = await postSettlement(t, bob, groupId, bob, ada, 100);
    expectProblem(await history(eve, `/v1/expenses/${id}/history`), 404, 'not_found');
    expectProblem(await history(eve, `/v1/settlements/${settlement.body.id}/history`), 404, 'not_found');
    expectProblem(await history(ada, '/v1/expenses/exp_unknown_id/history'), 404, 'not_found');
    expectProblem(await history(ada, '/v1/settlements/stl_unknown/history'), 404, 'not_found');
    // The expense is deleted: GET says 404, its history stays readable by the group's members.
    expectProblem(await t.request.get(`/v1/expenses/${id}`).set(ada.auth), 404, 'not_found');
    expect((await history(bob, `/v1/expenses/${id}/history`)).status).toBe(200);
    // A member who left sees nothing any more; one added later sees the whole history.
    const cy = await t.register('Cy');
    const added = await t.request
      .post(`/v1/groups/${groupId}/members`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({ userId: cy.id });
    expect(added.status).toBe(201);
    expect(((await history(cy, `/v1/expenses/${id}/history`)).body as HistoryPage).data).toHaveLength(4);
  });

  it('pages by seq with a cursor; the first diff of a page is against the last version of the one before', async () => {
    const id = await editedExpense();
    const whole = (await history(ada, `/v1/expenses/${id}/history`)).body as HistoryPage;
    const walked: HistoryEntry[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await history(ada, `/v1/expenses/${id}/history`, {
        limit: '1',
        ...(cursor ? { cursor } : {}),
      });
      expect(res.status).toBe(200);
      const page = res.body as HistoryPage;
      expect(page.data).toHaveLength(1);
      expect(page.truncated).toBe(false);
      walked.push(...page.data);
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBe(4);
    expect(walked).toEqual(whole.data);
    expectValidationFailed(await history(ada, `/v1/expenses/${id}/history`, { limit: '51' }), 'limit');
    expectValidationFailed(await history(ada, `/v1/expenses/${id}/history`, { limit: '0' }), 'limit');
    expectValidationFailed(await history(ada, `/v1/expenses/${id}/history`, { cursor: 'nope' }), 'cursor');
    expectValidationFailed(await history(ada, `/v1/expenses/${id}/history`, { include: 'x' }), 'include');
    expect((await history(ada, `/v1/expenses/${id}/history`, { limit: '50' })).status).toBe(200);
  });

  it('says truncated when retention took the oldest versions; the first kept one has no diff', async () => {
    const created = await postExpense(t, ada, groupId, ada, 1000, [ada, bob]);
    const id: string = created.body.id;
    await patch(ada, id, { amount: 1200 });
    await patch(ada, id, { amount: 1300 });
    // What retention does to old partitions, done to the creation and the first edit.
    await knex.raw(
      `delete from events where type in ('expense.created', 'expense.updated')
          and (data -> 'expense' ->> 'id') = ? and seq < (select max(seq) from events where (data -> 'expense' ->> 'id') = ?)`,
      [id, id],
    );
    const page = (await history(ada, `/v1/expenses/${id}/history`)).body as HistoryPage;
    expect(page.truncated).toBe(true);
    expect(page.data.map((v) => [v.action, v.version, v.changes])).toEqual([['updated', 3, null]]);
  });

  it('reads a record’s versions by events_expense_idx, not the group’s whole log', async () => {
    const big = await t.createGroup(ada, [bob]);
    const target = await postExpense(t, ada, big, ada, 500, [ada, bob]);
    const id: string = target.body.id;
    await patch(ada, id, { amount: 600 });
    // 20,000 money events of other expenses in the same group (published: nothing relays them).
    await knex.raw(
      `with g as (update groups set last_seq = last_seq + 20000 where id = ? returning last_seq)
       insert into events (id, group_id, seq, type, actor_id, occurred_at, data, published_at)
       select 'evt_seed_' || n, ?, g.last_seq - 20000 + n, 'expense.updated', ?, now(),
              json_build_object('expense', json_build_object('id', 'exp_seed_' || n, 'amount', n)), now()
         from g, generate_series(1, 20000) n`,
      [big, big, ada.id],
    );
    await patch(bob, id, { amount: 700 });
    await knex.raw('analyze events');
    const statement = historyStatement('expense', id, ada.id, 0, 21).statement;
    const { rows } = (await knex.raw(
      `explain (analyze, format json) ${statement.text.replace(/\$(\d+)/g, '?')}`,
      statement.values as Knex.RawBinding[],
    )) as { rows: { 'QUERY PLAN': { Plan: PlanNode }[] }[] };
    const plan = rows[0]?.['QUERY PLAN'][0]?.Plan as PlanNode;
    const nodes = nodesOf(plan);
    // The partition with events is read through the index (PostgreSQL names a partition's copy of
    // `events_expense_idx` `events_p<day>_expr_seq_idx`): row for row what the page takes, the
    // 20,000 other events never looked at; an empty partition may be "scanned", nothing to read.
    expect(
      nodes.filter((n) => /^events_(expense_idx|p\d+_expr_seq_idx)$/.test(n['Index Name'] ?? '')),
    ).not.toEqual([]);
    const onEvents = nodes.filter((n) => n['Relation Name']?.startsWith('events'));
    const read = onEvents.map((n) => (n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0));
    expect(read.reduce((a, b) => a + b, 0)).toBe(3);
    const page = (await history(ada, `/v1/expenses/${id}/history`)).body as HistoryPage;
    expect(page.data.map((v) => v.record['amount'])).toEqual([500, 600, 700]);
  }, 60_000);
});

type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
};
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
