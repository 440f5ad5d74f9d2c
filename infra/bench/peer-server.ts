/**
 * The same-guarantees peer of `npm run bench` (issue 23): express + pg + ioredis, a keyed
 * `POST /v1/expenses` written the way Brandur Leach's "Implementing Stripe-like Idempotency Keys in
 * Postgres" does it, with the guarantees Tally gives (exactly-once across crashes and Redis loss: the
 * key row commits with the expense; gap-free ordered events: the group row is locked and its seq
 * bumped in the same transaction), so Tally's figures can be read against a plain implementation of
 * the same promise rather than only against a bare INSERT.
 *
 * Its own tables (`peer_*`), created at start in the bench database; Tally's are never touched.
 *   POST /v1/groups      a group with the caller as its one member (bench setup, not measured)
 *   POST /v1/expenses    keyed: one SELECT of the key row (a replay answers from it: 201 with the
 *                        stored body, 422 on another fingerprint); otherwise ONE transaction:
 *                          insert the key row (user, key, path, fingerprint), `on conflict do nothing`,
 *                            under `pg_try_advisory_xact_lock` of the key (held by another writer → 409)
 *                          lock the group row `FOR UPDATE` (and read its members)
 *                          insert the expense
 *                          upsert the members' balances in one statement
 *                          insert the event at the group's next seq
 *                          bump the group's seq
 *                          store the response on the key row
 *                        commit, then PUBLISH the event to Redis.
 * Auth: `Authorization: Bearer <HS256 JWT>` verified with jose against PEER_JWT_SECRET, the verified
 * token remembered per exact text until it expires: what Tally does (packages/http-kit/access-tokens.ts).
 * One departure from the article: the stored response is `text`, not `jsonb`, so a replay answers the
 * bytes of the first answer (as Tally's does) and PostgreSQL does not parse it.
 * Validation: a small hand-written check of the body (Tally runs a joi schema), equal split among
 * `split.between`, each of whom must be a member of the group (422 otherwise).
 */
import { createHash, createSecretKey } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import Redis from 'ioredis';
import { jwtVerify } from 'jose';
import { Pool, type PoolClient } from 'pg';
import { serveBenchApp } from './serve-bench-app';

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.PEER_POOL_MAX ?? 10),
});
const redis = new Redis(process.env.REDIS_URL as string);
const key = createSecretKey(
  Buffer.from(process.env.PEER_JWT_SECRET ?? 'peer-secret-peer-secret-peer-secret-00', 'utf8'),
);
const remembered = new Map<string, { userId: string; expiresAt: number }>();

const SCHEMA = `
create table if not exists peer_groups (
  id bigserial primary key, name text not null, seq bigint not null default 0,
  created_at timestamptz not null default now());
create table if not exists peer_members (
  group_id bigint not null references peer_groups (id), user_id text not null,
  primary key (group_id, user_id));
create table if not exists peer_expenses (
  id bigserial primary key, group_id bigint not null references peer_groups (id),
  description text not null, amount bigint not null, paid_by text not null, split jsonb not null,
  created_at timestamptz not null default now());
create table if not exists peer_balances (
  group_id bigint not null, user_id text not null, net bigint not null,
  primary key (group_id, user_id));
create table if not exists peer_events (
  group_id bigint not null, seq bigint not null, type text not null, payload jsonb not null,
  created_at timestamptz not null default now(), primary key (group_id, seq));
create table if not exists peer_idempotency_keys (
  id bigserial primary key, user_id text not null, idempotency_key text not null,
  request_method text not null, request_path text not null, request_fingerprint text not null,
  response_code int, response_body text, locked_at timestamptz,
  created_at timestamptz not null default now(), last_run_at timestamptz not null default now(),
  unique (user_id, idempotency_key));
`;

async function userIdOf(req: Request): Promise<string | undefined> {
  const match = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(req.get('authorization') ?? '');
  const token = match?.[1];
  if (!token) return undefined;
  const known = remembered.get(token);
  if (known && known.expiresAt > Date.now()) return known.userId;
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return undefined;
    remembered.set(token, { userId: payload.sub, expiresAt: payload.exp * 1000 });
    if (remembered.size > 10_000) remembered.delete(remembered.keys().next().value as string);
    return payload.sub;
  } catch {
    return undefined;
  }
}

const problem = (res: Response, status: number, code: string) => res.status(status).json({ error: { code } });

type ExpenseBody = {
  groupId: string;
  description: string;
  amount: number;
  paidBy: string;
  split: { type: 'equal'; between: string[] };
};

function invalid(b: Partial<ExpenseBody> | undefined): boolean {
  return (
    typeof b !== 'object' ||
    b === null ||
    typeof b.groupId !== 'string' ||
    typeof b.description !== 'string' ||
    b.description.length === 0 ||
    !Number.isSafeInteger(b.amount) ||
    (b.amount as number) <= 0 ||
    typeof b.paidBy !== 'string' ||
    b.split?.type !== 'equal' ||
    !Array.isArray(b.split.between) ||
    b.split.between.length === 0 ||
    !b.split.between.every((u) => typeof u === 'string')
  );
}

const app = express();
app.use(express.json());

app.post('/v1/groups', async (req, res) => {
  const userId = await userIdOf(req);
  if (!userId) return void problem(res, 401, 'unauthenticated');
  const { rows } = await pool.query(
    `with g as (insert into peer_groups (name) values ($1) returning id)
     insert into peer_members (group_id, user_id) select id, $2 from g returning group_id as id`,
    [String(req.body?.name ?? 'group'), userId],
  );
  res.status(201).json({ id: String(rows[0].id) });
});

app.post('/v1/expenses', async (req, res) => {
  const userId = await userIdOf(req);
  if (!userId) return void problem(res, 401, 'unauthenticated');
  const idempotencyKey = req.get('idempotency-key');
  if (!idempotencyKey || idempotencyKey.length > 255)
    return void problem(res, 400, 'idempotency_key_required');
  const body = req.body as ExpenseBody;
  if (invalid(body)) return void problem(res, 400, 'validation_failed');
  const fingerprint = createHash('sha256')
    .update(`POST /v1/expenses ${JSON.stringify(body)}`)
    .digest('base64url');

  // A replay reads the key row: one SELECT by its unique index, outside any transaction.
  const replay = await findKey(userId, idempotencyKey);
  if (replay) return void answerFromKey(res, replay, fingerprint);

  let client: PoolClient | undefined = await pool.connect();
  try {
    await client.query('begin');
    const inserted = await client.query(
      `insert into peer_idempotency_keys
         (user_id, idempotency_key, request_method, request_path, request_fingerprint, locked_at)
       select $1, $2, 'POST', '/v1/expenses', $3, now()
       where pg_try_advisory_xact_lock(hashtextextended($1 || ' ' || $2, 0))
       on conflict (user_id, idempotency_key) do nothing
       returning id`,
      [userId, idempotencyKey, fingerprint],
    );
    if (inserted.rowCount === 0) {
      // Another transaction holds the key (in flight), or committed it since our SELECT.
      await client.query('rollback');
      client.release();
      client = undefined;
      const committed = await findKey(userId, idempotencyKey);
      if (committed) return void answerFromKey(res, committed, fingerprint);
      return void problem(res, 409, 'idempotency_key_in_use');
    }
    const keyId = inserted.rows[0].id as string;
    const group = await client.query(
      `select seq, array(select user_id from peer_members m where m.group_id = g.id) as members
       from peer_groups g where id = $1 for update`,
      [body.groupId],
    );
    const members = new Set<string>(group.rows[0]?.members ?? []);
    if (
      group.rowCount === 0 ||
      !members.has(userId) ||
      !members.has(body.paidBy) ||
      !body.split.between.every((u) => members.has(u))
    ) {
      // Brandur's keys record a failure too: a 4xx is stored and replayed like a success.
      await client.query(
        `update peer_idempotency_keys set response_code = 422, response_body = $2, locked_at = null where id = $1`,
        [keyId, JSON.stringify({ error: { code: 'not_a_member' } })],
      );
      await client.query('commit');
      return void problem(res, 422, 'not_a_member');
    }
    // Equal split: the remainder goes one minor unit each to the first members.
    const n = body.split.between.length;
    const share = Math.floor(body.amount / n);
    const extra = body.amount - share * n;
    const split = body.split.between.map((u, i) => ({ userId: u, amount: share + (i < extra ? 1 : 0) }));
    const deltas = new Map<string, number>();
    for (const s of split) deltas.set(s.userId, (deltas.get(s.userId) ?? 0) - s.amount);
    deltas.set(body.paidBy, (deltas.get(body.paidBy) ?? 0) + body.amount);

    const expense = await client.query(
      `insert into peer_expenses (group_id, description, amount, paid_by, split)
       values ($1, $2, $3, $4, $5) returning id, created_at`,
      [body.groupId, body.description, body.amount, body.paidBy, JSON.stringify(split)],
    );
    await client.query(
      `insert into peer_balances (group_id, user_id, net)
       select $1, u, d from unnest($2::text[], $3::bigint[]) as t (u, d)
       on conflict (group_id, user_id) do update set net = peer_balances.net + excluded.net`,
      [body.groupId, [...deltas.keys()], [...deltas.values()]],
    );
    const seq = Number(group.rows[0].seq) + 1;
    const response = {
      id: String(expense.rows[0].id),
      groupId: body.groupId,
      description: body.description,
      amount: body.amount,
      currency: 'INR',
      paidBy: body.paidBy,
      split,
      seq,
      createdAt: (expense.rows[0].created_at as Date).toISOString(),
    };
    const event = JSON.stringify({ type: 'expense.created', groupId: body.groupId, seq, expense: response });
    await client.query(
      `insert into peer_events (group_id, seq, type, payload) values ($1, $2, 'expense.created', $3)`,
      [body.groupId, seq, event],
    );
    await client.query('update peer_groups set seq = $2 where id = $1', [body.groupId, seq]);
    const text = JSON.stringify(response);
    await client.query(
      `update peer_idempotency_keys set response_code = 201, response_body = $2, locked_at = null where id = $1`,
      [keyId, text],
    );
    await client.query('commit');
    client.release();
    client = undefined;
    res.status(201).type('application/json').send(text);
    // After the commit: a lost publish is recovered by readers from peer_events (gap-free by seq).
    redis.publish(`peer:group:${body.groupId}`, event).catch(() => {});
  } catch (error) {
    if (client) {
      await client.query('rollback').catch(() => {});
      client.release();
      client = undefined;
    }
    if (!res.headersSent) res.status(500).json({ error: { code: 'internal', detail: String(error) } });
  } finally {
    client?.release();
  }
});

type KeyRow = { request_fingerprint: string; response_code: number | null; response_body: string | null };

async function findKey(userId: string, idempotencyKey: string): Promise<KeyRow | undefined> {
  const { rows } = await pool.query<KeyRow>(
    `select request_fingerprint, response_code, response_body
     from peer_idempotency_keys where user_id = $1 and idempotency_key = $2`,
    [userId, idempotencyKey],
  );
  return rows[0];
}

function answerFromKey(res: Response, row: KeyRow, fingerprint: string): void {
  if (row.request_fingerprint !== fingerprint) return void problem(res, 422, 'idempotency_key_reused');
  if (row.response_code === null) return void problem(res, 409, 'idempotency_key_in_use');
  res
    .status(row.response_code)
    .set('idempotent-replayed', 'true')
    .type('application/json')
    .send(row.response_body);
}

app.get('/healthz', (_req, res) => void res.json({ ok: true }));

serveBenchApp(app, { pool, redis, schema: SCHEMA });
