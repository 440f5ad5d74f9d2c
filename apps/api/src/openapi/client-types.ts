/**
 * Generates the SDK's wire types (packages/client/src/generated/openapi.ts) from the OpenAPI document
 * with openapi-typescript, formatted by Biome like the rest of the repository. A development tool,
 * not part of the server:
 *
 *   npm run gen:types                 writes the file
 *   npm run gen:types -- --check      exits 1 when the committed file is not current
 *   npm run gen:types -- --stdout     prints what the file must contain
 *
 * test/component/openapi-types.test.ts runs it (in a child process: openapi-typescript needs ESM
 * packages that jest cannot load on Node 20) and fails while the committed file is not current.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString, type OpenAPI3, STRING } from 'openapi-typescript';
import { openApiDocument } from './openapi';

const ROOT = path.resolve(__dirname, '../../../..');
export const CLIENT_TYPES_FILE = path.join(ROOT, 'packages/client/src/generated/openapi.ts');

const HEADER = `/**
 * The wire types of the Tally API, generated from its OpenAPI document (apps/api/src/openapi) by
 * openapi-typescript. Do not edit: change the document, then run \`npm run gen:types\`.
 * packages/client/src/types.ts gives them the SDK's names.
 */

`;

/** `text` formatted as Biome formats a file at `file`. */
function biomeFormat(text: string, file: string): string {
  const biome = require.resolve('@biomejs/biome/bin/biome');
  const result = spawnSync(process.execPath, [biome, 'format', `--stdin-file-path=${file}`], {
    cwd: ROOT,
    input: text,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`biome format failed: ${result.stderr || result.error}`);
  return result.stdout;
}

/** The contents packages/client/src/generated/openapi.ts must have for the current document. */
export async function generateClientTypes(): Promise<string> {
  // a plain copy: the document is frozen, and openapi-typescript annotates what it is given
  const document = JSON.parse(JSON.stringify(openApiDocument())) as OpenAPI3;
  const ast = await openapiTS(document, {
    silent: true,
    // `Currency` is the enum of the ISO 4217 codes the server's runtime knows (its ICU data), which
    // changes with the Node version: the SDK types it as a string and leaves the check to the server.
    transform: (_schema, { path }) => (path === '#/components/schemas/Currency' ? STRING : undefined),
  });
  return biomeFormat(HEADER + astToString(ast), path.relative(ROOT, CLIENT_TYPES_FILE));
}

async function main(args: string[]): Promise<void> {
  const text = await generateClientTypes();
  const file = path.relative(process.cwd(), CLIENT_TYPES_FILE);
  if (args.includes('--stdout')) {
    process.stdout.write(text);
  } else if (args.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(CLIENT_TYPES_FILE, 'utf8');
    } catch {
      // missing: not current either
    }
    if (committed !== text) {
      process.stderr.write(`${file} is not current with the OpenAPI document: run npm run gen:types\n`);
      process.exitCode = 1;
    } else {
      process.stdout.write(`${file} is current\n`);
    }
  } else {
    mkdirSync(path.dirname(CLIENT_TYPES_FILE), { recursive: true });
    writeFileSync(CLIENT_TYPES_FILE, text);
    process.stdout.write(`wrote ${file}\n`);
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
