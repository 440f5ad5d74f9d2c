import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, redisUrl, type TestDatabase } from '../support/test-database';
import { newKey } from '../support/test-server';
import { registerUser } from './http';

/** Two API processes sharing Redis and PostgreSQL, as behind a load balancer. */
describe('keyed writes across two API processes', () => {
  let db: TestDatabase;
  let apis: ServerProcess[];
  beforeAll(async () => {
    db = await createTestDatabase();
    const env = { ROLE: 'api', DATABASE_URL: db.url, REDIS_URL: redisUrl() };
    apis = await Promise.all([spawnServer(env), spawnServer(env)]);
  });
  afterAll(async () => {
    await Promise.all((apis ?? []).map((p) => p.kill('SIGTERM')));
    await db.drop();
  });

  it('turns 50 parallel identical requests into exactly one expense', async () => {
    const [a, b] = apis as [ServerProcess, ServerProcess];
    const ada = await registerUser(a.url, 'Ada');
    const group = await fetch(`${b.url}/v1/groups`, {
      method: 'POST',
      headers: { ...ada.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Race' }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    const key = newKey();
    const body = JSON.stringify({
      groupId: group.id,
      description: 'Concert',
      amount: 777700,
      paidBy: ada.id,
      split: { type: 'equal', between: [ada.id] },
    });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${(i % 2 === 0 ? a : b).url}/v1/expenses`, {
          method: 'POST',
          headers: { ...ada.headers, 'Content-Type': 'application/json', 'Idempotency-Key': key },
          body,
        }).then(async (r) => ({
          status: r.status,
          replayed: r.headers.get('idempotent-replayed'),
          body: (await r.json()) as { id?: string; code?: string },
        })),
      ),
    );
    const created = answers.filter((x) => x.status === 201);
    const inProgress = answers.filter((x) => x.status === 409);
    expect(created.length + inProgress.length).toBe(50);
    expect(created.filter((x) => x.replayed === null)).toHaveLength(1);
    expect(new Set(created.map((x) => x.body.id)).size).toBe(1);
    for (const x of inProgress) expect(x.body.code).toBe('idempotency_key_in_progress');
    const rows = await db.knex('expenses').where({ group_id: group.id });
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toBe(created[0]?.body.id);
  });
});
