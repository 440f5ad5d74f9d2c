/**
 * Writes the configuration tables of docs/API.md §10 from config.ts (between its marker comments):
 * `node --import tsx apps/server/src/config/gen-docs.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { withConfigDocs } from './docs';

const file = path.resolve(__dirname, '../../../../docs/API.md');
const before = readFileSync(file, 'utf8');
const after = withConfigDocs(before);
if (after !== before) writeFileSync(file, after);
process.stdout.write(
  `${after === before ? 'up to date' : 'updated'}: ${path.relative(process.cwd(), file)} §10\n`,
);
