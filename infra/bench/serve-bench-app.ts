import type { Express } from 'express';
import type Redis from 'ioredis';
import type { Pool } from 'pg';

/**
 * How the bench's own servers (the bare baseline, the same-guarantees peer) start and stop: `schema`
 * first, then listen on PORT and print `ready`; on SIGTERM close, end the pool and Redis, exit 0. A
 * schema that fails is printed and exits 1.
 */
export function serveBenchApp(app: Express, deps: { pool: Pool; redis: Redis; schema: string }): void {
  const { pool, redis } = deps;
  pool
    .query(deps.schema)
    .then(() => {
      const server = app.listen(Number(process.env.PORT), () => process.stdout.write('ready\n'));
      process.on('SIGTERM', () =>
        server.close(() => Promise.all([pool.end(), redis.quit()]).finally(() => process.exit(0))),
      );
    })
    .catch((error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    });
}
