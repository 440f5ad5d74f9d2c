/**
 * The write runner's answer to a group that other processes keep writing (write-runner.ts): a
 * write whose statement found the group moved on runs again on the current state; after two such
 * collisions it takes the group's row lock in a transaction and runs there, so it cannot lose a
 * third time. Here "another process" writes the group, as its statement would (the next seq and
 * its event), right before each of this write's first two statements reaches PostgreSQL: the
 * fallback is forced, not hoped for.
 */
import { Client } from 'pg';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

type QueryArg = { name?: string; text?: string } | string;
type PgClientClass = { prototype: { query: (...args: unknown[]) => unknown } };

describe('a write that keeps colliding with other processes', () => {
  let t: TestServer;
  let ada: TestUser;
  let other: Client;
  let proto: PgClientClass['prototype'];
  let original: PgClientClass['prototype']['query'];
  /** Texts of the queries the server sent, in order. */
  const sent: string[] = [];
  /** How many of this process's write statements another process should beat. */
  let beatNext = 0;
  let groupId: string;

  /** Another process's write to the group: the next seq and its event, committed. */
  const writeElsewhere = async () => {
    await other.query('begin');
    const { rows } = await other.query<{ last_seq: string }>(
      'update groups set last_seq = last_seq + 1 where id = $1 returning last_seq',
      [groupId],
    );
    await other.query(
      `insert into events (id, group_id, seq, type, actor_id, occurred_at, data)
       values ($1, $2, $3, 'group.updated', $4, now(), '{"group": {}}')`,
      [`evt_elsewhere_${Date.now()}_${rows[0]?.last_seq}`, groupId, rows[0]?.last_seq, ada.id],
    );
    await other.query('commit');
  };

  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    groupId = await t.createGroup(ada);
    other = new Client({ connectionString: t.db?.url });
    await other.connect();
    proto = (t.server.knex.client as { driver: { Client: PgClientClass } }).driver.Client.prototype;
    original = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      const q = args[0] as QueryArg;
      const text = typeof q === 'string' ? q : (q.text ?? '');
      if (this !== other) sent.push(text.replace(/\s+/g, ' ').slice(0, 60));
      if (typeof q === 'object' && q.name?.startsWith('tally_write_') && beatNext > 0) {
        beatNext--;
        return writeElsewhere().then(() => original.apply(this, args));
      }
      return original.apply(this, args);
    };
  });
  afterAll(async () => {
    proto.query = original;
    await other?.end();
    await t?.stop();
  });

  const post = (key: string) => t.postOwnExpense(ada, groupId, key, { description: 'Rent', amount: 1200 });

  it('takes the group row lock after two collisions, writes once, and keeps seq gapless', async () => {
    // A first write, so this process holds the group's state (the next one builds on it).
    expect((await post(newKey())).status).toBe(201);
    sent.length = 0;
    beatNext = 2;
    const key = newKey();
    const res = await post(key);
    expect(res.status).toBe(201);
    expect(beatNext).toBe(0);

    // Three statements: two beaten, then one inside a transaction holding the row lock.
    const writes = sent.filter((s) => s.startsWith('with guard'));
    expect(writes).toHaveLength(3);
    const begin = sent.indexOf('begin');
    const lock = sent.findIndex((s) => s.startsWith('select 1 from groups where id = $1 for update'));
    const lastWrite = sent.lastIndexOf(writes[2] as string);
    const commit = sent.indexOf('commit');
    expect(begin).toBeGreaterThanOrEqual(0);
    expect(lock).toBeGreaterThan(begin);
    expect(lastWrite).toBeGreaterThan(lock);
    expect(commit).toBeGreaterThan(lastWrite);

    // Written once; the group's log has no gap and no repeat, the other process's events included.
    const knex = t.server.knex;
    expect(
      await knex('expenses').where({ group_id: groupId, description: 'Rent' }).count({ n: '*' }),
    ).toEqual([{ n: '2' }]);
    const seqs = (await knex('events').where({ group_id: groupId }).orderBy('seq').select('seq')).map((r) =>
      Number(r.seq),
    );
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    const { last_seq } = await knex('groups').where({ id: groupId }).first('last_seq');
    expect(Number(last_seq)).toBe(seqs.length);

    // The key is recorded: the retry replays the same expense.
    const again = await post(key);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(res.body.id);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});
