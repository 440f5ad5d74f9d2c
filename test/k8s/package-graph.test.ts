/**
 * The package graph of ARCHITECTURE.md, checked on the sources (issue #11): apps depend on packages,
 * never packages on apps; `@tally/domain` and `@tally/client` import nothing of the others; every
 * workspace declares in its own package.json what its production code imports, and lists the
 * workspaces it imports as TypeScript project references (which `tsc -b` then enforces). The
 * import-level rules are also Biome lint rules (`noRestrictedImports` overrides in biome.json); this
 * test is what holds the manifests and the references to the code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');

type Manifest = {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

const WORKSPACES = ['apps', 'packages'].flatMap((top) =>
  readdirSync(path.join(ROOT, top)).map((name) => `${top}/${name}`),
);

/** The workspaces each may import: none for a package, packages for an app, anything for the server. */
const ALLOWED: Record<string, (dir: string) => boolean> = {
  'apps/server': () => true,
  'apps/api': (dir) => dir.startsWith('packages/'),
  'apps/gateway': (dir) => dir.startsWith('packages/'),
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.test-support.ts'))
    .filter((f) => !f.endsWith('.contract.ts'))
    .map((f) => path.join(dir, f));
}

/** Every module a file imports (static, dynamic, `require`, `require.resolve`), by the TypeScript parser. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
  for (const m of text.matchAll(/\brequire\.resolve\(\s*'([^']+)'/g)) found.push(m[1] as string);
  return found;
}

const packageName = (specifier: string) =>
  specifier.startsWith('@')
    ? specifier.split('/').slice(0, 2).join('/')
    : (specifier.split('/')[0] as string);

const manifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')) as Manifest;
const dirOf = new Map(WORKSPACES.map((dir) => [manifest(dir).name, dir]));

describe('the package graph', () => {
  it('knows every workspace', () => {
    expect(WORKSPACES.sort()).toEqual(
      expect.arrayContaining([
        'apps/api',
        'apps/gateway',
        'apps/server',
        'packages/client',
        'packages/domain',
      ]),
    );
  });

  describe.each(WORKSPACES)('%s', (dir) => {
    const own = manifest(dir);
    const declared = { ...own.dependencies, ...own.devDependencies };
    const imports = sourceFiles(path.join(ROOT, dir, 'src')).flatMap((file) =>
      importsOf(file).map((specifier) => ({ file: path.relative(ROOT, file), specifier })),
    );

    it('imports only workspaces it may, and only through their package names', () => {
      const wrong = imports.flatMap(({ file, specifier }) => {
        if (specifier.startsWith('.')) {
          const target = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), specifier));
          return target.startsWith(`${dir}/`) ? [] : [`${file}: ${specifier} leaves ${dir}`];
        }
        const target = dirOf.get(packageName(specifier));
        if (!target) return [];
        return (ALLOWED[dir] ?? (() => false))(target)
          ? []
          : [`${file}: ${dir} must not import ${specifier}`];
      });
      expect(wrong).toEqual([]);
    });

    it('declares every package its production code imports', () => {
      const missing = imports
        .filter(({ specifier }) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
        .filter(({ specifier }) => declared[packageName(specifier)] === undefined)
        .map(({ file, specifier }) => `${file}: ${specifier}`);
      expect(missing).toEqual([]);
    });

    it('references, as TypeScript projects, exactly the workspaces it imports', () => {
      const config = JSON.parse(readFileSync(path.join(ROOT, dir, 'tsconfig.json'), 'utf8')) as {
        references?: { path: string }[];
      };
      const referenced = (config.references ?? []).map((r) =>
        path.relative(ROOT, path.resolve(ROOT, dir, r.path)),
      );
      const imported = [
        ...new Set(
          imports.map(({ specifier }) => dirOf.get(packageName(specifier))).filter((d) => d !== undefined),
        ),
      ];
      expect(referenced.sort()).toEqual(imported.sort());
      const workspaceDeps = Object.keys(own.dependencies ?? {})
        .map((name) => dirOf.get(name))
        .filter((d) => d !== undefined);
      expect(workspaceDeps.sort()).toEqual(imported.sort());
    });
  });

  it('is checked by tsc -b: the root tsconfig.json references every workspace and the tests', () => {
    const root = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')) as {
      references: { path: string }[];
    };
    expect(root.references.map((r) => path.normalize(r.path)).sort()).toEqual(
      [...WORKSPACES, 'tsconfig.test.json'].sort(),
    );
  });
});
