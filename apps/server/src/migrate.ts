import { createKnex, migrateLatest } from '@tally/db';
import { loadConfig } from './config';

/** `npm run migrate`: what the Kubernetes migration Job runs before a rollout. */
async function main() {
  const config = loadConfig();
  const knex = createKnex({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 });
  try {
    await migrateLatest(knex);
    process.stdout.write('migrations are up to date\n');
  } finally {
    await knex.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
