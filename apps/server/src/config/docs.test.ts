/**
 * The documentation of the environment cannot drift from config.ts: docs/API.md §10 lists exactly
 * the declared variables with their defaults and meanings, the README's configuration table names
 * only declared variables, and nothing but config.ts reads `process.env`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_VARIABLES, loadConfig } from '../config';
import { DOCS_END, documentedVariables, renderConfigDocs } from './docs';

const ROOT = path.resolve(__dirname, '../../../..');
const REGENERATE = 'run `node --import tsx apps/server/src/config/gen-docs.ts`';

/** The text of a `## ` section, from its heading to the next `## ` heading. */
function section(file: string, heading: RegExp): string {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const lines = text.split('\n');
  const start = lines.findIndex((line) => heading.test(line));
  if (start < 0) throw new Error(`${file} has no section ${heading}`);
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/** The cells of every table row of a text, header and separator rows left out. */
function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, line.endsWith('|') ? -1 : undefined)
        .split('|')
        .map((cell) => cell.trim()),
    )
    .filter((cells) => cells[0] !== 'variable');
}

/** The variables §10 lists, as `[name, default, meaning]` (its items: `- \`NAME\` (default x): meaning`). */
function listRows(text: string): string[][] {
  return text
    .split('\n')
    .map((line) => /^- (`[A-Z][A-Z0-9_]*`) \(default (.*?)\): (.*)$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => [match[1] as string, match[2] as string, match[3] as string]);
}

const apiSection = () => section('docs/API.md', /^## 10\. Configuration/);

describe('docs/API.md §10, Configuration', () => {
  const declared = documentedVariables();
  const rows = listRows(apiSection());
  const listed = new Map<string, { default: string; meaning: string }[]>();
  for (const [name = '', shownDefault = '', meaning = ''] of rows) {
    const variable = /^`([A-Z][A-Z0-9_]*)`$/.exec(name)?.[1] ?? name;
    listed.set(variable, [...(listed.get(variable) ?? []), { default: shownDefault, meaning }]);
  }

  it('lists every variable config.ts declares, once', () => {
    const missing = declared.map((v) => v.name).filter((name) => !listed.has(name));
    expect({ missing, hint: REGENERATE }).toEqual({ missing: [], hint: REGENERATE });
    const repeated = [...listed].filter(([, entries]) => entries.length > 1).map(([name]) => name);
    expect(repeated).toEqual([]);
  });

  it('lists no variable that config.ts does not declare', () => {
    const known = new Set<string>(CONFIG_VARIABLES);
    const unknown = [...listed.keys()].filter((name) => !known.has(name));
    expect({ unknown, hint: REGENERATE }).toEqual({ unknown: [], hint: REGENERATE });
  });

  it.each(documentedVariables().map((v) => [v.name, v] as const))(
    'gives %s the default and meaning declared in config.ts',
    (name, variable) => {
      const entry = listed.get(name)?.[0];
      expect({ name, default: entry?.default, meaning: entry?.meaning }).toEqual({
        name,
        default: variable.default,
        meaning: variable.meaning,
      });
    },
  );

  it('holds the generated tables, byte for byte, between its markers', () => {
    const text = apiSection();
    const begin = text.indexOf('<!-- config:begin');
    const end = text.indexOf(DOCS_END);
    expect(begin).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(begin);
    expect(text.slice(begin, end + DOCS_END.length)).toBe(renderConfigDocs());
  });

  it('declares exactly the variables config.ts parses, with a one-line meaning each', () => {
    expect(declared.map((v) => v.name)).toEqual([...CONFIG_VARIABLES]);
    for (const v of declared) expect(v.meaning).toMatch(/^[^\n|]{10,}$/);
    // test/k8s/manifests-support.ts reads the names from the source, as lines `  NAME: Joi.…` or `  NAME: integer(…`.
    const source = readFileSync(path.join(ROOT, 'apps/server/src/config/variables.ts'), 'utf8');
    const inSource = [...source.matchAll(/^ {2}([A-Z][A-Z0-9_]*): (?:Joi\.|integer\()/gm)].map((m) => m[1]);
    expect(inSource).toEqual([...CONFIG_VARIABLES]);
  });

  it('is right that an empty value counts as unset wherever the default is "unset"', () => {
    for (const v of declared.filter((d) => d.default === 'unset')) {
      expect(() => loadConfig({ [v.name]: '' })).not.toThrow();
    }
  });
});

describe("README.md's configuration table", () => {
  it('names only variables config.ts declares', () => {
    const known = new Set<string>(CONFIG_VARIABLES);
    const names = new Set<string>();
    for (const cells of tableRows(section('README.md', /^## Configuration\b/))) {
      // The variable column, and any variable named in code font elsewhere in the row (`NAME` or `NAME=value`).
      for (const match of (cells[0] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(match[1] as string);
      for (const match of cells.join(' ').matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?:=[^`]*)?`/g)) {
        names.add(match[1] as string);
      }
    }
    expect(names.size).toBeGreaterThan(0);
    expect([...names].filter((name) => !known.has(name))).toEqual([]);
  });
});

describe('process.env', () => {
  it('is read by config.ts alone among the sources of apps/ and packages/', () => {
    const readers: string[] = [];
    const visit = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== 'node_modules' && entry.name !== 'dist') visit(file);
        } else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
          if (/\bprocess\.env\b/.test(readFileSync(file, 'utf8'))) readers.push(path.relative(ROOT, file));
        }
      }
    };
    for (const top of ['apps', 'packages']) {
      for (const workspace of readdirSync(path.join(ROOT, top)))
        visit(path.join(ROOT, top, workspace, 'src'));
    }
    expect(readers).toEqual(['apps/server/src/config.ts']);
  });
});
