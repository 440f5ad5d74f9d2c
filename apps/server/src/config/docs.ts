/**
 * docs/API.md §10 from the declarations in config/variables.ts: one list item per variable (name, default,
 * meaning), one list per group, written between two marker comments by `gen-docs.ts`. A list, not a
 * table: a table pads every row of a group out to its longest meaning. The test
 * beside this file fails when the document and the declarations differ.
 */
import type Joi from 'joi';
import { CONFIG_GROUPS } from '../config';

export type DocumentedVariable = Readonly<{ name: string; group: string; default: string; meaning: string }>;

const BEGIN = '<!-- config:begin';
export const DOCS_BEGIN = `${BEGIN}: generated from apps/server/src/config/variables.ts by node --import tsx apps/server/src/config/gen-docs.ts; edit the declarations there, not this list -->`;
export const DOCS_END = '<!-- config:end -->';

const flagsOf = (schema: Joi.Schema) =>
  (schema.describe().flags ?? {}) as { default?: unknown; description?: string };

/** How §10 shows a default: the value in code font, or `unset` where there is none (or it is empty). */
function shownDefault(schema: Joi.Schema): string {
  const declared = flagsOf(schema).default;
  const value: unknown = typeof declared === 'function' ? declared() : declared;
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return 'unset';
  return `\`${String(value)}\``;
}

/** Every declared variable, in declaration order, as §10 lists it. */
export function documentedVariables(): DocumentedVariable[] {
  return CONFIG_GROUPS.flatMap(({ title, variables }) =>
    Object.entries(variables as Record<string, Joi.Schema>).map(([name, schema]) => {
      const meaning = flagsOf(schema).description;
      if (!meaning || /[|\n]/.test(meaning)) {
        throw new Error(`${name} in config/variables.ts needs a .description() of one line without "|"`);
      }
      return { name, group: title, default: shownDefault(schema), meaning };
    }),
  );
}

/** How §10 lists one variable: `- \`NAME\` (default \`x\`): meaning`. */
export const listItem = (v: Pick<DocumentedVariable, 'name' | 'default' | 'meaning'>): string =>
  `- \`${v.name}\` (default ${v.default}): ${v.meaning}`;

/** The generated part of §10, markers included. */
export function renderConfigDocs(): string {
  const variables = documentedVariables();
  const groups = [...new Set(variables.map((v) => v.group))];
  const lists = groups.map((group) => {
    const items = variables.filter((v) => v.group === group).map(listItem);
    return `**${group}**\n\n${items.join('\n')}`;
  });
  return [DOCS_BEGIN, ...lists, DOCS_END].join('\n\n');
}

/**
 * The document with its generated part replaced by `renderConfigDocs()`.
 * @throws Error when the markers are missing or out of order
 */
export function withConfigDocs(document: string): string {
  const begin = document.indexOf(BEGIN);
  const end = document.indexOf(DOCS_END);
  if (begin < 0 || end < begin) {
    throw new Error(`docs/API.md §10 needs the markers "${BEGIN}…-->" and "${DOCS_END}", in that order`);
  }
  return document.slice(0, begin) + renderConfigDocs() + document.slice(end + DOCS_END.length);
}
