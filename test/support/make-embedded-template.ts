/**
 * `node --import tsx test/support/make-embedded-template.ts <dataDir>`: creates the embedded database
 * (PGlite) in `<dataDir>/pg` and migrates it to the latest schema (embedded-template.ts copies it).
 * PGlite cannot load inside jest's module sandbox, hence a process of its own.
 */
import { createKnex, migrateLatest } from '@tally/db';

async function main() {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: make-embedded-template.ts <dataDir>');
  const knex = createKnex({ dataDir });
  try {
    // Opening PGlite (its WebAssembly cluster made from nothing) can take longer than knex's wait for
    // the connection on a loaded machine: wait for it to be open first (knex-pglite's instance).
    await (knex.client as unknown as { pglite: { waitReady: Promise<void> } }).pglite.waitReady;
    await migrateLatest(knex);
  } finally {
    await knex.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
