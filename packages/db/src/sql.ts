import type { Knex } from 'knex';

/**
 * SQL that carries its own values, the one way Tally writes a fixed statement (the packages use it
 * from here). `sql\`… ${value} …\`` keeps each value beside the text it belongs to; a nested
 * fragment brings its own values along, so fragments compose without anyone numbering placeholders
 * by hand. `text` numbers them `$1`, `$2`… in the order they appear, `values` lists
 * them in that order: the two can never disagree.
 */
export class Sql {
  /** The text between the values: always one more than `values`. */
  readonly strings: readonly string[];
  readonly values: readonly unknown[];

  constructor(strings: readonly string[], values: readonly unknown[]) {
    if (strings.length !== values.length + 1) throw new Error('an Sql has one more string than values');
    const flatStrings: string[] = [strings[0] as string];
    const flatValues: unknown[] = [];
    values.forEach((value, i) => {
      const after = strings[i + 1] as string;
      if (value instanceof Sql) {
        // A fragment: its first string joins the text before it, its last the text after it.
        flatStrings[flatStrings.length - 1] += value.strings[0] as string;
        flatValues.push(...value.values);
        flatStrings.push(...value.strings.slice(1));
        flatStrings[flatStrings.length - 1] += after;
      } else {
        flatValues.push(value);
        flatStrings.push(after);
      }
    });
    this.strings = flatStrings;
    this.values = flatValues;
  }

  /** The text with PostgreSQL placeholders, `$1`…`$n`. */
  get text(): string {
    let text = this.strings[0] as string;
    for (let i = 1; i < this.strings.length; i++) text += `$${i}${this.strings[i] as string}`;
    return text;
  }
}

export const sql = (strings: TemplateStringsArray, ...values: unknown[]): Sql => new Sql(strings, values);

/** Text taken as it is (an identifier, a keyword): never a value from a request. */
export const raw = (text: string): Sql => new Sql([text], []);

export const empty = raw('');

/** The fragments one after another, `separator` between them. */
export function join(parts: readonly Sql[], separator = ', '): Sql {
  if (parts.length === 0) return empty;
  const separators = parts.slice(1).map(() => separator);
  return new Sql(['', ...separators, ''], parts);
}

/**
 * A statement with its values beside its text, as `sql` builds it (any `Sql`):
 * `strings` is always one longer than `values`, value `i` goes between `strings[i]` and `strings[i + 1]`.
 */
export type SqlStatement = { readonly strings: readonly string[]; readonly values: readonly unknown[] };

/**
 * The statement as knex's `raw` takes it: a `?` for each value, and every `?` of the text itself
 * (a jsonb operator) escaped, so knex numbers only the values, in their order. knex reads `??` as
 * an identifier and `\??` as one placeholder: a value right after a `?` or another value gets a
 * space before its `?`.
 */
export function toKnexRaw(statement: SqlStatement): [string, Knex.RawBinding[]] {
  let text = '';
  statement.strings.forEach((part, i) => {
    if (i > 0) text += text.endsWith('?') ? ' ?' : '?';
    text += part.replaceAll('?', '\\?');
  });
  return [text, [...statement.values] as Knex.RawBinding[]];
}

/**
 * Runs `statement` on `db` (the pool, or a transaction) through knex's public API and returns its
 * rows. With `name`, PostgreSQL prepares it once per connection (a `pg` named statement) and later
 * runs send only the values.
 */
export async function runSql<R>(
  db: Knex | Knex.Transaction,
  statement: SqlStatement,
  name?: string,
): Promise<R[]> {
  const [text, values] = toKnexRaw(statement);
  const query = db.raw(text, values);
  const result = (await (name === undefined ? query : query.options({ name }))) as { rows: R[] };
  return result.rows;
}
