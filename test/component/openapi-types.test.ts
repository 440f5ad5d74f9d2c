/**
 * The SDK's wire types come from the OpenAPI document: the committed generated file must be what
 * openapi-typescript makes of the current document, and the SDK must not reach into server code.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');
const CLIENT_SRC = path.join(ROOT, 'packages/client/src');
const CLIENT_TYPES_FILE = path.join(CLIENT_SRC, 'generated/openapi.ts');

/** What `npm run gen:types` would write, generated afresh from the current document. */
async function generateClientTypes(): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'apps/api/src/openapi/client-types.ts', '--stdout'],
    { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every module specifier a file imports, re-exports or requires, as TypeScript reads them. */
const specifiersOf = (source: string): string[] =>
  ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);

describe('generated SDK types', () => {
  it('are current: packages/client/src/generated/openapi.ts is what the document generates', async () => {
    const committed = readFileSync(CLIENT_TYPES_FILE, 'utf8');
    const fresh = await generateClientTypes();
    if (committed !== fresh) {
      const committedLines = committed.split('\n');
      const freshLines = fresh.split('\n');
      const line = freshLines.findIndex((text, i) => text !== committedLines[i]);
      throw new Error(
        `${path.relative(process.cwd(), CLIENT_TYPES_FILE)} is out of date with the OpenAPI document: ` +
          `run npm run gen:types (first difference at line ${line + 1}: ` +
          `committed ${JSON.stringify(committedLines[line])}, generated ${JSON.stringify(freshLines[line])})`,
      );
    }
    expect(fresh).toContain('export interface components');
  });

  it('are the only source of the SDK wire types, and the SDK imports no server code', () => {
    const files = sourceFiles(CLIENT_SRC);
    expect(files.length).toBeGreaterThan(10);
    // The SDK's own npm dependencies (no @tally/*): it installs outside the monorepo.
    const manifest = JSON.parse(readFileSync(path.join(CLIENT_SRC, '../package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    const declared = Object.keys(manifest.dependencies ?? {});
    expect(declared.filter((name) => name.startsWith('@tally/'))).toEqual([]);
    for (const file of files) {
      for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
        // relative imports that stay inside packages/client/src, or a declared npm dependency;
        // nothing else (no @tally/*, no apps/)
        const target = specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : specifier;
        expect({
          file: path.relative(CLIENT_SRC, file),
          specifier,
          inside: target.startsWith(CLIENT_SRC) || declared.includes(specifier),
        }).toEqual({
          file: path.relative(CLIENT_SRC, file),
          specifier,
          inside: true,
        });
      }
    }
    const types = readFileSync(path.join(CLIENT_SRC, 'types.ts'), 'utf8');
    expect(specifiersOf(types)).toEqual(['./generated/openapi.js']);
    // types.ts names the generated types; it declares no object shape of the wire by hand
    // (the only literal shapes left are the SDK's own narrowing of AddMemberRequest and Problem)
    const objectTypes = [...types.matchAll(/^export type (\w+) =\s*\{/gm)].map((m) => m[1]);
    expect(objectTypes).toEqual(['EventDataByType']);
  });
});
