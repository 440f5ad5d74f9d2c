/**
 * `node --import tsx test/support/make-embedded-template.ts <dir>`: creates the embedded database
 * (PGlite) in `<dir>/pg`, migrated to the latest schema (embedded-template.ts copies it). Made in a
 * sibling directory and moved in place when done, so `<dir>/pg` is either whole or absent. PGlite
 * cannot load inside jest's module sandbox, hence a process of its own.
 */
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createKnex, migrateLatest } from '@tally/db';

async function main() {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: make-embedded-template.ts <dir>');
  const staging = path.join(dir, `staging-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const knex = createKnex({ dataDir: staging });
  try {
    // Opening PGlite (its WebAssembly cluster made from nothing) can take longer than knex's wait for
    // the connection on a loaded machine: wait for it to be open first (knex-pglite's instance).
    await (knex.client as unknown as { pglite: { waitReady: Promise<void> } }).pglite.waitReady;
    await migrateLatest(knex);
  } finally {
    await knex.destroy();
  }
  rmSync(path.join(dir, 'pg'), { recursive: true, force: true });
  renameSync(path.join(staging, 'pg'), path.join(dir, 'pg'));
  rmSync(staging, { recursive: true, force: true });
  process.stdout.write(`embedded template: ${path.join(dir, 'pg')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
