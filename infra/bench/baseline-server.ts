/**
 * The bare baselines of `npm run bench`: express + pg + ioredis with no validation, auth or
 * idempotency. Tally's figures are reported as ratios against these, measured in the same run on
 * the same machine.
 *   POST /rows      one INSERT in a transaction (BEGIN, INSERT, COMMIT): the bare keyed write
 *   GET  /rows/:id  one PostgreSQL SELECT by primary key: the bare GET expense / GET balances
 *   POST /replay    one Redis GET of the idempotency-key header: the bare replay of a recorded key
 */
import express from 'express';
import Redis from 'ioredis';
import { Pool } from 'pg';
import { serveBenchApp } from './serve-bench-app';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const redis = new Redis(process.env.REDIS_URL as string);
const app = express();
app.use(express.json());

app.post('/rows', async (req, res) => {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query('insert into bench_rows (payload) values ($1) returning id', [
      JSON.stringify(req.body),
    ]);
    await client.query('commit');
    res.status(201).json({ id: rows[0].id });
  } catch (error) {
    await client.query('rollback').catch(() => {});
    res.status(500).json({ error: String(error) });
  } finally {
    client.release();
  }
});

app.get('/rows/:id', async (req, res) => {
  const { rows } = await pool.query('select id, payload from bench_rows where id = $1', [req.params.id]);
  if (rows.length === 0) res.status(404).end();
  else res.json(rows[0]);
});

app.post('/replay', async (req, res) => {
  const stored = await redis.get(`bench:replay:${req.get('idempotency-key')}`);
  if (stored === null) res.status(404).end();
  else res.status(201).type('application/json').send(stored);
});

serveBenchApp(app, {
  pool,
  redis,
  schema: 'create table if not exists bench_rows (id bigserial primary key, payload jsonb not null)',
});
