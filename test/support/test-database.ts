/**
 * Per-test-file PostgreSQL databases and Redis key spaces on the servers found by global setup.
 *
 *   const db = await createTestDatabase();   // fresh, migrated database: db.knex, db.url
 *   ...
 *   await db.drop();                          // in afterAll
 *
 *   const r = await createTestRedis();        // r.redis prefixes every key with r.prefix
 *   ...
 *   await r.quit();                           // deletes this instance's keys, closes the connection
 *
 * Note: ioredis applies `keyPrefix` to key arguments only, not to SCAN/KEYS patterns.
 */
import { randomBytes } from 'node:crypto';
import { Cluster, type ClusterOptions, Redis } from 'ioredis';
import { knex as createKnex, type Knex } from 'knex';
import { Client } from 'pg';
import { currentRunId, databasePrefix, readTestServices, redisPrefix } from './run-info';

export type TestDatabase = {
  /** The database name, `tally_test_<runid>_<random>`. */
  name: string;
  url: string;
  knex: Knex;
  /** Destroys `knex` and drops the database. Safe to call more than once. */
  drop(): Promise<void>;
};

export type TestRedis = {
  url: string;
  /** A connection whose every key is prefixed with `prefix`. */
  redis: Redis;
  prefix: string;
  /** Deletes the keys under `prefix` and closes the connection. Safe to call more than once. */
  quit(): Promise<void>;
};

const NOT_SET_UP =
  'is unknown: run the tests through jest (the integration project has a global setup that finds or ' +
  'starts the servers), or set it explicitly.';

/** URL of the test PostgreSQL server's maintenance database (e.g. postgres://…/test). */
export function databaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL || readTestServices()?.databaseUrl;
  if (!url) throw new Error(`TEST_DATABASE_URL ${NOT_SET_UP}`);
  return url;
}

/** `host:port,…` of the test Redis Cluster (started by global setup, or TEST_REDIS_CLUSTER_NODES). */
export function redisClusterNodes(): string {
  const nodes = process.env.TEST_REDIS_CLUSTER_NODES || readTestServices()?.redisClusterNodes;
  if (!nodes) throw new Error(`TEST_REDIS_CLUSTER_NODES ${NOT_SET_UP}`);
  return nodes;
}

/** `host:port,…` as ioredis Cluster startup nodes. */
export function startupNodes(nodes: string = redisClusterNodes()): { host: string; port: number }[] {
  return nodes.split(',').map((entry) => {
    const at = entry.trim().lastIndexOf(':');
    return { host: entry.trim().slice(0, at), port: Number(entry.trim().slice(at + 1)) };
  });
}

export type TestRedisCluster = {
  nodes: string;
  /** A cluster client whose every key (and sharded channel) is prefixed with `prefix`. */
  redis: Cluster;
  prefix: string;
  /** Deletes the keys under `prefix` on every primary and closes the client. Safe to call more than once. */
  quit(): Promise<void>;
};

/** A cluster client with a key prefix of its own (`tally_test:<runid>:<random>:`), on the test cluster. */
export async function createTestRedisCluster(options: ClusterOptions = {}): Promise<TestRedisCluster> {
  const nodes = redisClusterNodes();
  const prefix = `${redisPrefix(currentRunId())}${randomBytes(4).toString('hex')}:`;
  const redis = new Cluster(startupNodes(nodes), { ...options, keyPrefix: prefix, lazyConnect: true });
  await redis.connect();
  const quit = once(async () => {
    try {
      for (const node of redis.nodes('master')) {
        let cursor = '0';
        do {
          // A node's own SCAN: the pattern gets no prefix, and each key is deleted on its node.
          const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
          cursor = next;
          for (const key of keys) await node.call('UNLINK', key);
        } while (cursor !== '0');
      }
    } finally {
      await redis.quit().catch(() => redis.disconnect());
    }
  });
  return { nodes, redis, prefix, quit };
}

/** URL of the test Redis server. */
export function redisUrl(): string {
  const url = process.env.TEST_REDIS_URL || readTestServices()?.redisUrl;
  if (!url) throw new Error(`TEST_REDIS_URL ${NOT_SET_UP}`);
  return url;
}

function urlWithDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let result: Promise<void> | undefined;
  return () => {
    result ??= fn();
    return result;
  };
}

async function dropDatabaseWith(client: Client, name: string): Promise<void> {
  const { rows } = await client.query<{ server_version_num: string }>('show server_version_num');
  const version = Number(rows[0]?.server_version_num ?? 0);
  if (version >= 130000) {
    await client.query(`drop database if exists ${quoteIdentifier(name)} with (force)`);
    return;
  }
  await client.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [name],
  );
  await client.query(`drop database if exists ${quoteIdentifier(name)}`);
}

/** Creates the (empty) database `name` on the server at `serverUrl`. */
export async function createDatabase(serverUrl: string, name: string): Promise<void> {
  await withClient(serverUrl, (client) => client.query(`create database ${quoteIdentifier(name)}`));
}

/** Drops one database on the server at `serverUrl` (forcibly: open connections are terminated). */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withClient(serverUrl, (client) => dropDatabaseWith(client, name));
}

/** Drops every database this run created (`tally_test_<runId>_*`); returns their names. */
export async function dropRunDatabases(serverUrl: string, runId: string): Promise<string[]> {
  const prefix = databasePrefix(runId);
  return withClient(serverUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where left(datname, length($1)) = $1',
      [prefix],
    );
    for (const { datname } of rows) await dropDatabaseWith(client, datname);
    return rows.map((r) => r.datname);
  });
}

/** The name of this run's migrated template: `tally_test_<runid>_template` (dropped with the run's databases). */
export function templateDatabaseName(runId: string = currentRunId()): string {
  return `${databasePrefix(runId)}template`;
}

/** What the template's comment says once it is fully migrated (a half-made one is made again). */
const TEMPLATE_READY = 'tally test template: migrated';

let templateOfThisProcess: Promise<string> | undefined;

/**
 * This run's template database, migrated to the latest schema: made once per run by whichever
 * worker gets there first (the others wait on an advisory lock, then find it ready). Copying it
 * (`CREATE DATABASE … TEMPLATE`) costs a fraction of migrating each test database from scratch,
 * which some hundred databases a run did.
 */
export function migratedTemplate(serverUrl: string = databaseUrl()): Promise<string> {
  templateOfThisProcess ??= makeTemplate(serverUrl);
  templateOfThisProcess.catch(() => {
    templateOfThisProcess = undefined;
  });
  return templateOfThisProcess;
}

async function makeTemplate(serverUrl: string): Promise<string> {
  const name = templateDatabaseName();
  await withClient(serverUrl, async (client) => {
    await client.query('select pg_advisory_lock(hashtext($1))', [name]);
    try {
      const { rows } = await client.query<{ note: string | null }>(
        "select shobj_description(oid, 'pg_database') as note from pg_database where datname = $1",
        [name],
      );
      if (rows[0]?.note === TEMPLATE_READY) return;
      if (rows.length > 0) await dropDatabaseWith(client, name);
      await client.query(`create database ${quoteIdentifier(name)}`);
      const knex = createKnex({
        client: 'pg',
        connection: urlWithDatabase(serverUrl, name),
        pool: { min: 0, max: 2 },
      });
      try {
        // Imported lazily so that Redis-only tests do not load the schema package.
        const { migrateLatest } = await import('@tally/db');
        await migrateLatest(knex);
      } finally {
        await knex.destroy();
      }
      await client.query(`comment on database ${quoteIdentifier(name)} is '${TEMPLATE_READY}'`);
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [name]).catch(() => {});
    }
  });
  return name;
}

/**
 * Creates `tally_test_<runid>_<random>`, migrated to the latest schema (a copy of this run's
 * template, see `migratedTemplate`), and opens a knex pool (max 5). `migrate: false`: the database
 * is left empty, for a migration's own test to migrate step by step.
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = databaseUrl();
  const name = `${databasePrefix(currentRunId())}${randomBytes(4).toString('hex')}`;
  if (options.migrate === false) {
    await createDatabase(serverUrl, name);
  } else {
    const template = await migratedTemplate(serverUrl);
    await withClient(serverUrl, (client) =>
      client.query(`create database ${quoteIdentifier(name)} template ${quoteIdentifier(template)}`),
    );
  }
  const url = urlWithDatabase(serverUrl, name);
  const knex = createKnex({ client: 'pg', connection: url, pool: { min: 0, max: 5 } });
  const drop = once(async () => {
    try {
      await knex.destroy();
    } finally {
      await dropDatabase(serverUrl, name);
    }
  });
  return { name, url, knex, drop };
}

/** Deletes every key matching `pattern` (a SCAN glob) on the server at `url`. */
export async function deleteRedisKeys(url: string, pattern: string): Promise<number> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  client.on('error', () => {});
  await client.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await client.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    await client.quit().catch(() => client.disconnect());
  }
  return deleted;
}

/** A Redis connection with a key prefix of its own (`tally_test:<runid>:<random>:`), so tests never collide. */
export async function createTestRedis(): Promise<TestRedis> {
  const url = redisUrl();
  const prefix = `${redisPrefix(currentRunId())}${randomBytes(4).toString('hex')}:`;
  const redis = new Redis(url, { keyPrefix: prefix, lazyConnect: true });
  await redis.connect();
  const quit = once(async () => {
    try {
      await redis.quit().catch(() => redis.disconnect());
    } finally {
      await deleteRedisKeys(url, `${prefix}*`);
    }
  });
  return { url, redis, prefix, quit };
}
