import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { BOTH_STORES } from './hold-group';

/**
 * API.md §7 (revised): the scope's path is the canonical route path, the route template with its ids
 * filled in as the API spells them. One operation reached through another spelling of its path is
 * the same scope; another id is another scope. Both stores, real PostgreSQL.
 */
describe.each(BOTH_STORES)(
  'one idempotency scope per route, however its path is spelled, with the $store store',
  ({ env }) => {
    let t: TestServer;
    let knex: Knex;
    let ada: TestUser;
    let groupId: string;

    beforeAll(async () => {
      t = await startTestServer({ env: env() });
      knex = t.db!.knex;
      ada = await t.register('Ada');
      groupId = await t.createGroup(ada);
    });
    afterAll(async () => {
      await t.stop();
    });

    const expenseBody = () => ({
      groupId,
      description: 'Lunch',
      amount: 1500,
      paidBy: ada.id,
      split: { type: 'equal', between: [ada.id] },
    });
    const recordsOf = (key: string) =>
      knex('idempotency_records').where({ user_id: ada.id, key }).select('path', 'status');

    it('turns POST /v1/expenses, /v1/expenses/ and /V1/Expenses with one key into one expense and two replays', async () => {
      const key = newKey();
      const answers = [];
      for (const path of ['/v1/expenses', '/v1/expenses/', '/V1/Expenses']) {
        answers.push(
          await t.request.post(path).set(ada.auth).set('Idempotency-Key', key).send(expenseBody()),
        );
      }
      const [first, second, third] = answers;
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
      expect(first?.headers['idempotent-replayed']).toBeUndefined();
      expect(second?.headers['idempotent-replayed']).toBe('true');
      expect(third?.headers['idempotent-replayed']).toBe('true');
      expect(second?.body).toEqual(first?.body);
      expect(third?.body).toEqual(first?.body);
      const rows = await knex('expenses').where({ description: 'Lunch', group_id: groupId });
      expect(rows.map((r: { id: string }) => r.id)).toEqual([first?.body.id]);
      expect(await recordsOf(key)).toEqual([{ path: '/v1/expenses', status: 201 }]);
    });

    it('fills the route template with the decoded ids: three spellings of one restore are one scope', async () => {
      const created = await t.request
        .post('/v1/expenses')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send(expenseBody());
      const id: string = created.body.id;
      const deleted = await t.request
        .delete(`/v1/expenses/${id}`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey());
      expect(deleted.status).toBe(204);
      const key = newKey();
      const spellings = [
        `/v1/expenses/${id}/restore`,
        `/V1/EXPENSES/${id}/Restore/`,
        `/v1/expenses/${id.replace('_', '%5F')}/restore`,
      ];
      const answers = [];
      for (const path of spellings) {
        answers.push(await t.request.post(path).set(ada.auth).set('Idempotency-Key', key));
      }
      expect(answers.map((a) => [a.status, a.headers['idempotent-replayed']])).toEqual([
        [200, undefined],
        [200, 'true'],
        [200, 'true'],
      ]);
      const restores = await knex('events')
        .where({ group_id: groupId, type: 'expense.created' })
        .whereRaw("data->>'restored' = 'true' and data->'expense'->>'id' = ?", [id]);
      expect(restores).toHaveLength(1);
      expect(await recordsOf(key)).toEqual([{ path: `/v1/expenses/${id}/restore`, status: 200 }]);
    });

    it('keeps ids as they are spelled: a PUT to an id in other letter case is another scope and another expense', async () => {
      const key = newKey();
      const lower = `put-${Date.now().toString(36)}-abc`;
      const upper = lower.toUpperCase();
      const a = await t.request
        .put(`/v1/expenses/${lower}`)
        .set(ada.auth)
        .set('Idempotency-Key', key)
        .send(expenseBody());
      const b = await t.request
        .put(`/V1/expenses/${upper}`)
        .set(ada.auth)
        .set('Idempotency-Key', key)
        .send(expenseBody());
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(b.headers['idempotent-replayed']).toBeUndefined();
      expect([a.body.id, b.body.id]).toEqual([lower, upper]);
      expect((await recordsOf(key)).map((r: { path: string }) => r.path).sort()).toEqual(
        [`/v1/expenses/${lower}`, `/v1/expenses/${upper}`].sort(),
      );
    });

    it('records and replays a keyed write to an id longer than any id, rather than failing with a 500', async () => {
      // Random hex does not compress: its durable record's path alone is beyond PostgreSQL's index limit.
      const id = `exp_${randomBytes(3000).toString('hex')}`;
      const key = newKey();
      const first = await t.request.delete(`/v1/expenses/${id}`).set(ada.auth).set('Idempotency-Key', key);
      const again = await t.request.delete(`/v1/expenses/${id}`).set(ada.auth).set('Idempotency-Key', key);
      expect([first.status, first.body.code]).toEqual([404, 'not_found']);
      expect([again.status, again.headers['idempotent-replayed']]).toEqual([404, 'true']);
      const put = await t.request
        .put(`/V1/expenses/${id}`)
        .set(ada.auth)
        .set('Idempotency-Key', key)
        .send(expenseBody());
      // The same scope (another spelling of the path) with another method, but a PUT to an id no
      // client could choose is invalid on its own: answered before the key is looked at.
      expect([put.status, put.body.code]).toEqual([422, 'validation_failed']);
      const post = await t.request
        .post(`/V1/expenses/${id}/restore`)
        .set(ada.auth)
        .set('Idempotency-Key', key);
      // Another scope (another route) with the same key: its own outcome, recorded on its own.
      expect([post.status, post.body.code]).toEqual([404, 'not_found']);
      expect(post.headers['idempotent-replayed']).toBeUndefined();
    });
  },
);
