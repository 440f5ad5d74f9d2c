/**
 * A migrated embedded database (PGlite) to copy into the DATA_DIR of a server process on the embedded
 * default, so that the process opens a copy instead of creating and migrating a database of its own
 * (most of its start: seconds of CPU each, a minute on a loaded machine). `.ci/run` makes one before
 * the tests (`node --import tsx test/support/make-embedded-template.ts <dir>`) and names its `pg`
 * directory in TALLY_TEST_EMBEDDED_TEMPLATE; without it, every process starts from an empty DATA_DIR.
 */
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';

export const EMBEDDED_TEMPLATE_ENV = 'TALLY_TEST_EMBEDDED_TEMPLATE';

/** Copies the template into `dataDir` (as `dataDir/pg`) when there is one and no database is there yet. */
export function withEmbeddedTemplate(dataDir: string): void {
  const template = process.env[EMBEDDED_TEMPLATE_ENV];
  if (!template || !existsSync(path.join(template, 'PG_VERSION'))) return;
  const target = path.join(dataDir, 'pg');
  if (existsSync(target)) return;
  cpSync(template, target, { recursive: true });
}
