import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every module specifier in `import … from`, `export … from`, `import(…)` and `require(…)`. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

/** The package's production files: everything in src except tests and their support files. */
function productionFiles(): string[] {
  return readdirSync(__dirname, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .filter((file) => !file.endsWith('.test.ts') && !file.endsWith('.test-support.ts'));
}

function specifiersIn(source: string): string[] {
  return [...source.matchAll(SPECIFIER)].map((match) => match[1]!);
}

describe('the domain package dependency rule', () => {
  it('finds the specifiers of every import form it guards against', () => {
    const source = [
      "import express from 'express';",
      "import type { Knex } from 'knex';",
      "export { x } from './x';",
      "const pg = require('pg');",
      "const fs = await import('node:fs');",
      "import 'ioredis';",
    ].join('\n');
    expect(specifiersIn(source)).toEqual(['express', 'knex', './x', 'pg', 'node:fs', 'ioredis']);
  });

  it('keeps production code free of I/O by importing only sibling modules', () => {
    const files = productionFiles();
    expect(files).toContain('compute-shares.ts');
    const offending = files.flatMap((file) =>
      specifiersIn(readFileSync(join(__dirname, file), 'utf8'))
        .filter((specifier) => !specifier.startsWith('./'))
        .map((specifier) => `${file} imports ${specifier}`),
    );
    expect(offending).toEqual([]);
  });
});
