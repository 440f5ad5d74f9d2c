/**
 * The money write's one statement (group-change.ts) returns the group's snapshot only when it did
 * not apply, for the retry. PostgreSQL must not read that snapshot and then drop it: with the
 * condition as a join filter it did, on every write (about a tenth of PostgreSQL's CPU per keyed
 * write in a micro-benchmark). This pins the plan of the statement a real keyed POST sends: the
 * snapshot's scan of `groups` sits under a One-Time Filter, and an applied write never runs it.
 */
import { Client } from 'pg';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  Alias?: string;
  'One-Time Filter'?: string;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
};
type QueryArg = { name?: string; text?: string; values?: unknown[] };
type PgClientClass = { prototype: { query: (...args: unknown[]) => unknown } };

/** Every node of a plan with the path of nodes above it. */
function* walk(node: PlanNode, above: PlanNode[] = []): Generator<{ node: PlanNode; above: PlanNode[] }> {
  yield { node, above };
  for (const child of node.Plans ?? []) yield* walk(child, [...above, node]);
}

describe('the money write statement', () => {
  let t: TestServer;
  let ada: TestUser;
  let groupId: string;
  let pg: Client;
  const sent: QueryArg[] = [];
  let proto: PgClientClass['prototype'];
  let original: PgClientClass['prototype']['query'];

  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    groupId = await t.createGroup(ada);
    proto = (t.server.knex.client as { driver: { Client: PgClientClass } }).driver.Client.prototype;
    original = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      const q = args[0] as QueryArg | string;
      if (typeof q === 'object' && q.name?.startsWith('tally_write_')) sent.push(q);
      return original.apply(this, args);
    };
    pg = new Client({ connectionString: t.db?.url });
    await pg.connect();
  });
  afterAll(async () => {
    proto.query = original;
    await pg?.end();
    await t?.stop();
  });

  const post = () => t.postOwnExpense(ada, groupId, newKey(), { description: 'Tea', amount: 500 });

  it('reads the group snapshot only when it did not apply', async () => {
    expect((await post()).status).toBe(201);
    const statement = sent.at(-1);
    expect(statement?.text).toBeDefined();
    const { text, values } = statement as Required<QueryArg>;

    // Run it again under EXPLAIN ANALYZE, in a transaction rolled back: what ran, and how often.
    const plan = async (vals: unknown[]) => {
      await pg.query('begin');
      try {
        const { rows } = await pg.query({ text: `explain (analyze, format json) ${text}`, values: vals });
        return (rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]?.Plan as PlanNode;
      } finally {
        await pg.query('rollback');
      }
    };
    const snapshotScan = (root: PlanNode) => {
      const found = [...walk(root)].find(
        ({ node }) => node['Relation Name'] === 'groups' && node.Alias === 'g',
      );
      expect(found).toBeDefined();
      return found as { node: PlanNode; above: PlanNode[] };
    };

    // The same values again: the guard (last_seq = the one it started from) no longer matches, the
    // statement applies nothing, and the snapshot is read, once.
    const stale = snapshotScan(await plan(values));
    expect(stale.node['Actual Loops']).toBe(1);

    // Values that apply (the next seq, new ids and key): the snapshot's scan never runs.
    const [lastSeq] = (await pg.query('select last_seq from groups where id = $1', [groupId])).rows.map(
      (r: { last_seq: string }) => Number(r.last_seq),
    );
    const next = (lastSeq as number) + 1;
    const fresh = [...values];
    // The statement's values (group-change.ts `statement`): the guard's first (the next seq at 0, the
    // seq it starts from at 9), the event's id then its seq, the record's user, key and path.
    fresh[0] = next;
    fresh[9] = lastSeq;
    const eventAt = values.findIndex((v) => typeof v === 'string' && v.startsWith('evt_'));
    fresh[eventAt] = `evt_plan${Date.now()}`;
    fresh[eventAt + 1] = next;
    const expenseAt = values.findIndex((v) => typeof v === 'string' && v.startsWith('exp_'));
    fresh[expenseAt] = `exp_plan${Date.now()}`;
    const pathAt = values.indexOf('/v1/expenses');
    fresh[pathAt - 1] = newKey();
    const applied = snapshotScan(await plan(fresh));
    expect(applied.above.some((n) => n['One-Time Filter'] !== undefined)).toBe(true);
    expect(applied.node['Actual Loops']).toBe(0);
  });
});
