import { Redis } from 'ioredis';
import { Client } from 'pg';
import {
  createTestDatabase,
  createTestRedis,
  databaseUrl,
  redisUrl,
  type TestDatabase,
} from './test-database';

async function databaseExists(name: string): Promise<boolean> {
  const client = new Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    return rowCount === 1;
  } finally {
    await client.end();
  }
}

describe('test support: PostgreSQL', () => {
  let db: TestDatabase | undefined;

  afterAll(async () => {
    await db?.drop();
  });

  it('creates a fresh migrated database, and drops it', async () => {
    db = await createTestDatabase();
    expect(db.name).toMatch(/^tally_test_[a-z0-9]+_[a-f0-9]{8}$/);
    expect(new URL(db.url).pathname).toBe(`/${db.name}`);
    expect(await databaseExists(db.name)).toBe(true);

    const migrations = await db.knex('knex_migrations').select('name');
    expect(migrations.length).toBeGreaterThan(0);

    await db.knex.schema.createTable('support_selftest', (t) => {
      t.increments('id');
      t.text('value').notNullable();
    });
    await db.knex('support_selftest').insert({ value: 'hello' });
    expect(await db.knex('support_selftest').select('value')).toEqual([{ value: 'hello' }]);

    await db.drop();
    await db.drop(); // idempotent
    expect(await databaseExists(db.name)).toBe(false);
  });

  it('gives every call its own database', async () => {
    const [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    try {
      expect(a.name).not.toBe(b.name);
      await a.knex.schema.createTable('only_in_a', (t) => t.increments('id'));
      expect(await a.knex.schema.hasTable('only_in_a')).toBe(true);
      expect(await b.knex.schema.hasTable('only_in_a')).toBe(false);
    } finally {
      await Promise.all([a.drop(), b.drop()]);
    }
  });
});

describe('test support: Redis', () => {
  it('isolates instances by key prefix, and cleans up on quit', async () => {
    const a = await createTestRedis();
    const b = await createTestRedis();
    const raw = new Redis(redisUrl());
    try {
      expect(a.prefix).not.toBe(b.prefix);

      await a.redis.set('shared-name', 'from-a');
      expect(await b.redis.get('shared-name')).toBeNull();
      await b.redis.set('shared-name', 'from-b');
      expect(await a.redis.get('shared-name')).toBe('from-a');
      expect(await b.redis.get('shared-name')).toBe('from-b');
      expect(await raw.get(`${a.prefix}shared-name`)).toBe('from-a');

      await a.quit();
      await a.quit(); // idempotent
      expect(await raw.exists(`${a.prefix}shared-name`)).toBe(0);
      expect(await b.redis.get('shared-name')).toBe('from-b');
    } finally {
      await Promise.all([a.quit(), b.quit()]);
      await raw.quit();
    }
  });
});
