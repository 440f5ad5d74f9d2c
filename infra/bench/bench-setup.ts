/**
 * What every bench script sets up the same way: a PostgreSQL database of its own (on the server
 * `ensurePostgres` finds or starts, dropped afterwards), waiting for a started server, and where
 * results go (`bench-results/`, git-ignored, one timestamped name per run).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { Client } from 'pg';
import { ensurePostgres } from '../../test/support/services';

const ROOT = path.resolve(__dirname, '../..');

export type BenchDatabase = {
  /** The new database's name. */
  name: string;
  /** Its URL. */
  url: string;
  /** A connection to the server's maintenance database, open until `drop`. */
  admin: Client;
  /** Drops the database (ending its sessions), closes `admin`, stops a server started for the bench. */
  drop(): Promise<void>;
};

/** A new database named `<prefix>_<time>`, with `settings` (name, value) set on it. */
export async function createBenchDatabase(
  prefix: string,
  settings: [string, string][] = [],
): Promise<BenchDatabase> {
  const pg = await ensurePostgres();
  const name = `${prefix}_${Date.now().toString(36)}`;
  const admin = new Client({ connectionString: pg.url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  for (const [setting, value] of settings)
    await admin.query(`alter database ${name} set ${setting} = '${value}'`);
  const url = new URL(pg.url);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    admin,
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end();
      await pg.stop();
    },
  };
}

/** Polls `url` every 100 ms until it answers below 500; throws after 30 s. */
export async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

/** `bench-results/<prefix>-<time><suffix>`, its directory made. */
export function resultPath(prefix: string, suffix = ''): string {
  const dir = path.join(ROOT, 'bench-results');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, `${prefix}-${new Date().toISOString().replace(/[:.]/g, '-')}${suffix}`);
}

/** Writes `data` as JSON to a new result file and says where. */
export function writeResults(prefix: string, data: unknown): void {
  const file = resultPath(prefix, '.json');
  writeFileSync(file, JSON.stringify(data, null, 2));
  process.stdout.write(`\nwritten to ${path.relative(ROOT, file)}\n`);
}

/** Stops what a bench started: its child processes (a second for their SIGTERM), its Redis and database. */
export async function stopBench(
  children: ChildProcess[],
  redis: { stop(): Promise<void> },
  db: BenchDatabase,
): Promise<void> {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await redis.stop();
  await db.drop();
}

/** Runs a bench's `main`: a failure is printed with its stack and exits 1. */
export function runBench(name: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${name} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}

/** The JWT secret of the Tally servers the benches start. */
export const BENCH_JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0000';

/**
 * What every bench gives the Tally server it starts besides its role, port and stores: its secret,
 * quiet logs, a data directory of its own (`tally-<name>-…`), and limits far above any load it makes.
 */
export function benchServerEnv(name: string): Record<string, string> {
  return {
    JWT_SECRET: BENCH_JWT_SECRET,
    LOG_LEVEL: 'warn',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), `tally-${name}-`)),
    RATE_LIMIT_PER_MINUTE: '100000000',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000000',
    LOGIN_THROTTLE_IP_FREE_FAILURES: '100000000',
  };
}

/**
 * Starts a Tally server for a bench: `node <argv>` at the repository root with PATH, `env` (role,
 * port, stores) and {@link benchServerEnv}; its stdout is dropped, its stderr shown.
 */
export function spawnBenchServer(argv: string[], name: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, argv, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env, ...benchServerEnv(name) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** A deterministic generator of numbers in [0, 1) (mulberry32), so that runs of a bench compare. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The plan of `statement` (a `@tally/db` `Sql`) as `EXPLAIN ANALYZE` prints it, run on `knex`. */
export async function explainAnalyze(
  knex: { raw(text: string, values: never[]): Promise<{ rows: { 'QUERY PLAN': string }[] }> },
  statement: { text: string; values: readonly unknown[] },
): Promise<string> {
  const plan = await knex.raw(
    `explain (analyze, costs off, timing on) ${statement.text.replace(/\$(\d+)/g, '?')}`,
    [...statement.values] as never[],
  );
  return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
}

/** The `p`th percentile of `sorted` (ascending), NaN for none. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** One JSON request to a bench's server: its parsed answer, or an error naming the status and body. */
export async function call(
  api: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${api}${url}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

export type BenchUser = { id: string; token: string };

/** Five users registered on the server at `api` and their group (EUR), made by the first (`owner`). */
export async function createBenchGroup(
  api: string,
): Promise<{ users: BenchUser[]; owner: BenchUser; groupId: string }> {
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const users: BenchUser[] = [];
  for (let i = 0; i < 5; i++) {
    const s = (await call(
      api,
      'POST',
      '/v1/auth/register',
      {},
      {
        email: `bench.${i}.${Date.now()}@example.com`,
        name: `User ${i}`,
        password: 'correct horse battery',
      },
    )) as { user: { id: string }; accessToken: string };
    users.push({ id: s.user.id, token: s.accessToken });
  }
  const owner = users[0] as BenchUser;
  const group = await call(api, 'POST', '/v1/groups', auth(owner.token), { name: 'Bench', currency: 'EUR' });
  const groupId = group.id as string;
  for (const u of users.slice(1))
    await call(api, 'POST', `/v1/groups/${groupId}/members`, auth(owner.token), { userId: u.id });
  return { users, owner, groupId };
}

/** What varies between the benches' expenses; drawn first for each row, before payer, split and date. */
export type BenchExpenseFields = {
  description: string;
  category?: string | null;
  category_id?: string | null;
  currency: string;
  search_text: string;
};

/**
 * Inserts `count` expenses of `group` straight into `expenses`, 2,000 a statement: each paid by one
 * of `users`, split equally (100 a head) between a random half of them (the payer when none), dated
 * in `[start, start + span)`, 2 % deleted; `fields()` gives the rest. Then `analyze`, and one log line.
 */
export async function seedBenchExpenses(
  knex: Knex,
  group: { groupId: string; owner: BenchUser; users: readonly BenchUser[] },
  options: {
    count: number;
    rand: () => number;
    start: number;
    span: number;
    fields: () => BenchExpenseFields;
  },
): Promise<void> {
  const { groupId, owner, users } = group;
  const { count, rand, start, span, fields } = options;
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)] as T;
  const seededAt = Date.now();
  const BATCH = 2000;
  for (let done = 0; done < count; done += BATCH) {
    const rows = [];
    for (let i = done; i < Math.min(count, done + BATCH); i++) {
      const varying = fields();
      const payer = pick(users).id;
      const between = users.filter(() => rand() < 0.5).map((u) => u.id);
      if (between.length === 0) between.push(payer);
      const amount = 100 * between.length;
      const at = new Date(start + Math.floor(rand() * span));
      rows.push({
        id: `exp_bench${String(i).padStart(8, '0')}`,
        group_id: groupId,
        ...varying,
        amount,
        paid_by: JSON.stringify([{ userId: payer, amount }]),
        split: JSON.stringify({ type: 'equal', between }),
        shares: JSON.stringify(between.map((userId) => ({ userId, owed: 100 }))),
        occurred_at: at,
        created_by: owner.id,
        created_at: at,
        updated_at: at,
        version: 1,
        deleted_at: rand() < 0.02 ? at : null,
        payer_ids: [payer],
        involved_ids: [...new Set([payer, ...between])],
      });
    }
    await knex('expenses').insert(rows);
  }
  await knex.raw('analyze expenses');
  console.log(`seeded ${count} expenses in one group in ${((Date.now() - seededAt) / 1000).toFixed(1)} s`);
}
