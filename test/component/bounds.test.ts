/**
 * API.md §9.1: every count bound of a write is enforced with `422 limit_exceeded` naming it, and a
 * refused request writes nothing. Each test brings the state to the bound (rows seeded straight into
 * PostgreSQL where the API would take hundreds of requests), then asks for one more.
 */
import type { Knex } from 'knex';
import type { Response } from 'supertest';
import { BOUNDS } from '../../apps/api/src/bounds';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { expectProblem, postExpense, postSettlement } from './component-helpers';

/** The answer is `422 limit_exceeded` naming `name` and its value. */
function expectLimit(res: Response, name: keyof typeof BOUNDS) {
  expectProblem(res, 422, 'limit_exceeded');
  expect(res.body.limit).toEqual({ name, max: BOUNDS[name] });
}

let seeded = 0;
/** `count` groups, each with `userId` as a member (since 2020), created straight in the database. */
async function seedMemberships(knex: Knex, userId: string, count: number): Promise<void> {
  const prefix = `grp_seed${++seeded}_`;
  await knex.raw(
    `insert into groups (id, name, description, currency, last_seq, version, created_at, updated_at)
     select ? || i, 'Seeded ' || i, '', 'USD', 0, 1, now(), now() from generate_series(1, ?) i`,
    [prefix, count],
  );
  await knex.raw(
    `insert into group_members (group_id, user_id, joined_at)
     select ? || i, ?, timestamptz '2020-01-01' + i * interval '1 minute' from generate_series(1, ?) i`,
    [prefix, userId, count],
  );
}

/** The id (`usr_` and 26 Crockford base-32 digits) of the `i`th pending member of seed `n`. */
const seededUserId = (n: number, i: number) =>
  `usr_0SEED${String(n).padStart(5, '0')}${String(i).padStart(16, '0')}`;

/**
 * A group, created straight in the database (so no process holds its state), with `owner` and
 * `pending` pending members (`seededUserId(n, 1…pending)`).
 */
async function seedGroup(
  knex: Knex,
  owner: TestUser,
  pending: number,
): Promise<{ groupId: string; n: number }> {
  const n = ++seeded;
  const groupId = `grp_seed${n}`;
  await knex.raw(
    `insert into groups (id, name, description, currency, last_seq, version, created_at, updated_at)
     values (?, 'Club', '', 'USD', 0, 1, now(), now())`,
    [groupId],
  );
  await knex.raw(`insert into group_members (group_id, user_id, joined_at) values (?, ?, now())`, [
    groupId,
    owner.id,
  ]);
  await knex.raw(
    `with p as (insert into users (id, name, status, pending_group_id, created_at)
                select ? || lpad(i::text, 16, '0'), 'Friend ' || i, 'pending', ?, now() from generate_series(1, ?) i
                returning id)
     insert into group_members (group_id, user_id, joined_at) select ?, p.id, now() from p`,
    [seededUserId(n, 0).slice(0, -16), groupId, pending, groupId],
  );
  return { groupId, n };
}

const countOf = async (knex: Knex, sql: string, bindings: readonly Knex.Value[]) =>
  Number(((await knex.raw(sql, bindings)) as { rows: { n: string }[] }).rows[0]?.n);

describe('bounds of API.md §9.1', () => {
  let t: TestServer;
  let knex: Knex;

  beforeAll(async () => {
    t = await startTestServer();
    knex = (t.db as NonNullable<TestServer['db']>).knex;
  }, 90_000);
  afterAll(async () => {
    await t?.stop();
  });

  it('groupsPerUser: creating, being added to and joining one group more than 500 is refused', async () => {
    const ada = await t.register('Ada');
    const bob = await t.register('Bob');
    await seedMemberships(knex, ada.id, BOUNDS.groupsPerUser - 1);
    const last = await t.request.post('/v1/groups').set(ada.auth).send({ name: 'Last' });
    expect(last.status).toBe(201);
    const groupsOfAda = () =>
      countOf(knex, 'select count(*) as n from group_members where user_id = ?', [ada.id]);
    expect(await groupsOfAda()).toBe(BOUNDS.groupsPerUser);

    const created = await t.request.post('/v1/groups').set(ada.auth).send({ name: 'One too many' });
    expectLimit(created, 'groupsPerUser');
    expect(await countOf(knex, `select count(*) as n from groups where name = 'One too many'`, [])).toBe(0);

    // Added by someone else, by id or by email: the same bound, naming Ada.
    const bobs = await t.createGroup(bob);
    const byId = await t.request.post(`/v1/groups/${bobs}/members`).set(bob.auth).send({ userId: ada.id });
    expectLimit(byId, 'groupsPerUser');
    expect(byId.body.detail).toContain(ada.id);
    const byEmail = await t.request
      .post(`/v1/groups/${bobs}/members`)
      .set(bob.auth)
      .send({ email: ada.email });
    expectLimit(byEmail, 'groupsPerUser');

    // Joining by an invite, and claiming a pending member through one.
    const invite = await t.request.post(`/v1/groups/${bobs}/invites`).set(bob.auth).send({});
    expect(invite.status).toBe(201);
    expectLimit(
      await t.request.post(`/v1/invites/${invite.body.code}/accept`).set(ada.auth).send({}),
      'groupsPerUser',
    );
    const zed = await t.request.post(`/v1/groups/${bobs}/members`).set(bob.auth).send({ name: 'Zed' });
    const asZed = await t.request
      .post(`/v1/invites/${invite.body.code}/accept`)
      .set(ada.auth)
      .send({ asMember: zed.body.userId });
    expectLimit(asZed, 'groupsPerUser');
    expect(await groupsOfAda()).toBe(BOUNDS.groupsPerUser);
    const group = await t.request.get(`/v1/groups/${bobs}`).set(bob.auth).expect(200);
    expect(group.body.members.map((m: { userId: string }) => m.userId)).toEqual([bob.id, zed.body.userId]);

    // Leaving one makes room again.
    await t.request.delete(`/v1/groups/${last.body.id}/members/${ada.id}`).set(ada.auth).expect(204);
    expect(
      (await t.request.post(`/v1/invites/${invite.body.code}/accept`).set(ada.auth).send({})).status,
    ).toBe(201);
  });

  it('membersPerGroup: a 101st member is refused, whoever it is and however they come', async () => {
    const ada = await t.register('Ada');
    const cy = await t.register('Cy');
    const { groupId, n } = await seedGroup(knex, ada, BOUNDS.membersPerGroup - 1);
    const membersOf = () =>
      countOf(knex, 'select count(*) as n from group_members where group_id = ? and claimed_by is null', [
        groupId,
      ]);
    expect(await membersOf()).toBe(BOUNDS.membersPerGroup);

    expectLimit(
      await t.request.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ name: 'Dee' }),
      'membersPerGroup',
    );
    expectLimit(
      await t.request.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ userId: cy.id }),
      'membersPerGroup',
    );
    const invite = await t.request.post(`/v1/groups/${groupId}/invites`).set(ada.auth).send({});
    expect(invite.status).toBe(201);
    expectLimit(
      await t.request.post(`/v1/invites/${invite.body.code}/accept`).set(cy.auth).send({}),
      'membersPerGroup',
    );
    expect(await membersOf()).toBe(BOUNDS.membersPerGroup);
    expect(await countOf(knex, `select count(*) as n from users where name = 'Dee'`, [])).toBe(0);

    // Taking over a pending member's place adds nobody: allowed at the bound.
    const taken = await t.request
      .post(`/v1/invites/${invite.body.code}/accept`)
      .set(cy.auth)
      .send({ asMember: seededUserId(n, 1) });
    expect(taken.status).toBe(201);
    expect(await membersOf()).toBe(BOUNDS.membersPerGroup);

    // A member who leaves makes room.
    await t.request
      .delete(`/v1/groups/${groupId}/members/${seededUserId(n, 2)}`)
      .set(ada.auth)
      .expect(204);
    expect(
      (await t.request.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ name: 'Dee' })).status,
    ).toBe(201);
  });

  it('currenciesPerGroup: a record in a 21st currency is refused; an old currency, or one freed, is not', async () => {
    const ada = await t.register('Ada');
    const bob = await t.register('Bob');
    const groupId = await t.createGroup(ada, [bob], { currency: 'USD' });
    const currencies = [
      'USD',
      'EUR',
      'GBP',
      'JPY',
      'INR',
      'CHF',
      'CAD',
      'AUD',
      'NZD',
      'SEK',
      'NOK',
      'DKK',
      'PLN',
    ];
    currencies.push('CZK', 'HUF', 'RON', 'BGN', 'TRY', 'MXN', 'BRL');
    expect(currencies).toHaveLength(BOUNDS.currenciesPerGroup);
    const ids: string[] = [];
    for (const currency of currencies.slice(0, -1)) {
      const res = await postExpense(t, ada, groupId, ada, 1000, [ada, bob], { currency });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    // The 20th by a settlement: settlements count too.
    expect((await postSettlement(t, bob, groupId, bob, ada, 100, { currency: 'BRL' })).status).toBe(201);
    const events = () => countOf(knex, 'select count(*) as n from events where group_id = ?', [groupId]);
    const before = await events();

    expectLimit(
      await postExpense(t, ada, groupId, ada, 1000, [ada, bob], { currency: 'ZAR' }),
      'currenciesPerGroup',
    );
    expectLimit(
      await postSettlement(t, bob, groupId, bob, ada, 100, { currency: 'ZAR' }),
      'currenciesPerGroup',
    );
    const moved = await t.request
      .patch(`/v1/expenses/${ids[1]}`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({ currency: 'ZAR' });
    // EUR's only record moves to ZAR: still 20 currencies.
    expect(moved.status).toBe(200);
    expectLimit(
      await t.request
        .put(`/v1/expenses/exp-client-chosen-1`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({
          groupId,
          description: 'Safari',
          amount: 100,
          currency: 'KES',
          paidBy: ada.id,
          split: { type: 'equal', between: [ada.id] },
        }),
      'currenciesPerGroup',
    );
    expect(await events()).toBe(before + 1);
    // A currency the group has: fine. Deleting GBP's only record frees its place.
    expect((await postExpense(t, ada, groupId, ada, 1000, [ada, bob], { currency: 'USD' })).status).toBe(201);
    await t.request
      .delete(`/v1/expenses/${ids[2]}`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .expect(204);
    expect((await postExpense(t, ada, groupId, ada, 1000, [ada, bob], { currency: 'KES' })).status).toBe(201);
    // Restoring GBP's record would make 21.
    expectLimit(
      await t.request.post(`/v1/expenses/${ids[2]}/restore`).set(ada.auth).set('Idempotency-Key', newKey()),
      'currenciesPerGroup',
    );
  });

  it('invitesPerGroup: a 101st live invite is refused; revoked and expired ones do not count', async () => {
    const ada = await t.register('Ada');
    const groupId = await t.createGroup(ada);
    await knex.raw(
      `insert into invites (id, group_id, code_hash, created_by, created_at, expires_at, revoked_at)
       select ? || '_' || i, ?, md5(? || i), ?, now(), now() + interval '7 days', null from generate_series(1, ?) i`,
      [`inv_${groupId}`, groupId, groupId, ada.id, BOUNDS.invitesPerGroup - 1],
    );
    await knex.raw(
      `insert into invites (id, group_id, code_hash, created_by, created_at, expires_at, revoked_at)
       values (?, ?, md5(?), ?, now(), now() + interval '7 days', now()),
              (?, ?, md5(?), ?, now() - interval '8 days', now() - interval '1 day', null)`,
      [
        `inv_${groupId}_r`,
        groupId,
        `${groupId}r`,
        ada.id,
        `inv_${groupId}_x`,
        groupId,
        `${groupId}x`,
        ada.id,
      ],
    );
    const last = await t.request.post(`/v1/groups/${groupId}/invites`).set(ada.auth).send({});
    expect(last.status).toBe(201);
    expectLimit(
      await t.request.post(`/v1/groups/${groupId}/invites`).set(ada.auth).send({}),
      'invitesPerGroup',
    );
    const listed = await t.request.get(`/v1/groups/${groupId}/invites`).set(ada.auth).expect(200);
    expect(listed.body.data).toHaveLength(BOUNDS.invitesPerGroup);

    await t.request.delete(`/v1/groups/${groupId}/invites/${last.body.id}`).set(ada.auth).expect(204);
    expect((await t.request.post(`/v1/groups/${groupId}/invites`).set(ada.auth).send({})).status).toBe(201);
  });

  it('commentsPerTarget: a 501st live comment on an expense is refused; deleted ones do not count', async () => {
    const ada = await t.register('Ada');
    const groupId = await t.createGroup(ada);
    const expense = await postExpense(t, ada, groupId, ada, 1000, [ada]);
    const expenseId: string = expense.body.id;
    await knex.raw(
      `insert into comments (id, group_id, target_type, target_id, author_id, text, created_at, deleted_at)
       select 'cmt_seed_' || ? || '_' || i, ?, 'expense', ?, ?, 'Seeded ' || i,
              timestamptz '2026-01-01' + i * interval '1 second', case when i <= 3 then now() end
         from generate_series(1, ?) i`,
      [expenseId, groupId, expenseId, ada.id, BOUNDS.commentsPerTarget + 2],
    );
    const comment = (text: string) =>
      t.request
        .post(`/v1/expenses/${expenseId}/comments`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ text });
    expect((await comment('the 500th')).status).toBe(201);
    const refused = await comment('one too many');
    expectLimit(refused, 'commentsPerTarget');
    expect(await countOf(knex, `select count(*) as n from comments where text = 'one too many'`, [])).toBe(0);

    await t.request
      .delete(`/v1/comments/cmt_seed_${expenseId}_10`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .expect(204);
    expect((await comment('room again')).status).toBe(201);
  });

  it('categoriesPerGroup: a 51st live category of a group’s own is refused; deleted ones and defaults do not count', async () => {
    const ada = await t.register('Ada');
    const groupId = await t.createGroup(ada);
    const create = (name: string) =>
      t.request
        .post(`/v1/groups/${groupId}/categories`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ name });
    const made: string[] = [];
    for (let i = 1; i < BOUNDS.categoriesPerGroup; i++) made.push((await create(`Seeded ${i}`)).body.id);
    expect((await create('the 50th')).status).toBe(201);
    expectLimit(await create('one too many'), 'categoriesPerGroup');
    expect(await countOf(knex, `select count(*) as n from categories where name = 'one too many'`, [])).toBe(
      0,
    );
    const listed = await t.request.get(`/v1/groups/${groupId}/categories`).set(ada.auth).expect(200);
    expect(listed.body.data).toHaveLength(10 + BOUNDS.categoriesPerGroup);
    await t.request
      .delete(`/v1/groups/${groupId}/categories/${made[0]}`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .expect(204);
    expect((await create('room again')).status).toBe(201);
  });
});
