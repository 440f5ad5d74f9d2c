/**
 * The bare baseline of `npm run bench`: express + pg, one route inserting one row, with no
 * validation, auth or idempotency. Tally's figures are reported as ratios against this, measured
 * in the same run on the same machine.
 */
import express from 'express';
import { Pool } from 'pg';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = express();
app.use(express.json());

app.post('/rows', async (req, res) => {
  const { rows } = await pool.query('insert into bench_rows (payload) values ($1) returning id', [
    JSON.stringify(req.body),
  ]);
  res.status(201).json({ id: rows[0].id });
});

pool
  .query('create table if not exists bench_rows (id bigserial primary key, payload jsonb not null)')
  .then(() => {
    const server = app.listen(Number(process.env.PORT), () => process.stdout.write('ready\n'));
    process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
  })
  .catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
