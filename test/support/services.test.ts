import { Redis } from 'ioredis';
import { Client } from 'pg';
import { ensurePostgres, ensureRedis, probePostgres, probeRedis } from './services';
import {
  createTestDatabase,
  createTestRedis,
  databaseUrl,
  migratedTemplate,
  redisUrl,
  type TestDatabase,
  templateDatabaseName,
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

  it("copies this run's template, migrated once to the latest schema", async () => {
    const [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    try {
      expect(await migratedTemplate()).toBe(templateDatabaseName());
      expect(await databaseExists(templateDatabaseName())).toBe(true);
      // Nothing left to migrate in a copy: it has every migration there is.
      const { migrateLatest } = await import('@tally/db');
      const before = await a.knex('knex_migrations').select('name').orderBy('id');
      await migrateLatest(a.knex);
      expect(await a.knex('knex_migrations').select('name').orderBy('id')).toEqual(before);
      expect(await b.knex('knex_migrations').select('name').orderBy('id')).toEqual(before);
    } finally {
      await Promise.all([a.drop(), b.drop()]);
    }
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

describe('test support: throwaway servers taken down and brought back (for chaos)', () => {
  it('restarts a throwaway Redis on the same URL, without its data', async () => {
    const redis = await ensureRedis({ ephemeral: true });
    const client = new Redis(redis.url, { maxRetriesPerRequest: null });
    client.on('error', () => {});
    try {
      await client.set('before', '1');
      await redis.down();
      await expect(probeRedis(redis.url, 500)).rejects.toThrow();
      await redis.up();
      await probeRedis(redis.url, 1000);
      // The same client reconnects by itself; the data went with the process.
      expect(await client.get('before')).toBeNull();
    } finally {
      client.disconnect();
      await redis.stop();
    }
  });

  it('restarts a throwaway PostgreSQL on the same URL and data directory, keeping committed data', async () => {
    const pg = await ensurePostgres({ ephemeral: true });
    const query = async (sql: string) => {
      const client = new Client({ connectionString: pg.url });
      await client.connect();
      try {
        return (await client.query(sql)).rows;
      } finally {
        await client.end();
      }
    };
    try {
      await query("create table kept (v text); insert into kept values ('committed')");
      await pg.down();
      await expect(probePostgres(pg.url, 500)).rejects.toThrow();
      await pg.up();
      expect(await query('select v from kept')).toEqual([{ v: 'committed' }]);
    } finally {
      await pg.stop();
    }
  });
});
