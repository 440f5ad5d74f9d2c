import type Joi from 'joi';
import parse from 'joi-to-json';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../auth/password-rules';
import {
  currency,
  localDate,
  newPassword,
  realTimestamp,
  searchQuery,
  TEXT_RULES,
  type TextRule,
  timeZone,
} from '../schemas';

/**
 * joi → JSON Schema 2020-12 (the dialect of OpenAPI 3.1) through the maintained converter
 * `joi-to-json` (its `open-api-3.1` output), fed with joi's own `schema.describe()`.
 *
 * Where joi-to-json gives the same result as joi, it is used as it is. Where it cannot, the
 * description is adjusted first (`adjust` below), and each adjustment says why:
 *
 * 1. joi rejects the empty string unless `allow('')`; joi-to-json emits no `minLength`, so the
 *    document would accept `""` (e.g. `category`, `cursor`) where the API answers 422. → a `min(1)`
 *    rule is added to strings that nothing else keeps from being empty.
 * 2. `number().precision(n)` is ignored by joi-to-json (a percent with 3 decimals would validate). →
 *    rewritten as `multiple(1e-n)`, which joi-to-json turns into `multipleOf`.
 * 3. `Joi.alternatives().conditional('.type', { switch, otherwise })`: joi-to-json lists the
 *    `otherwise` schema as one more `anyOf` branch. Ours can only be reached by values the switch
 *    already claims, so it never applies in joi, but as an `anyOf` branch it would accept any object
 *    with a known `type` (`{"type":"equal","between":[]}` included). → an unreachable `otherwise` is
 *    dropped, and every `then` must pin the key itself (else the branches would not be exclusive).
 * 4. `xor` peers: joi-to-json's default is `if/then/else`; the `oneOf` of `required` below says the
 *    same thing in a form code generators (openapi-typescript) and UIs understand. `or` peers: an
 *    `anyOf` of `required`, inside an `allOf` (see `logicalOpParser`).
 * 5. joi-to-json reads `integer` only as the first number rule, and ignores a string `length`. →
 *    `integer` is moved first and `length(n)` becomes `min(n)` + `max(n)`.
 * 6. joi-to-json ignores `object().min(n)` (PatchExpenseRequest: "at least one field"). → set as
 *    `minProperties` on its result (outside alternatives, where the branches cannot be told apart).
 * 7. A `custom` validator is a function, which JSON Schema cannot read. The ones whose accepted set
 *    can be stated are listed in `KNOWN_CUSTOM` (the currency check: exactly the ISO 4217 codes of
 *    `Intl.supportedValuesOf('currency')`, which `schemas/fields.ts` accepts, becomes their `enum`); any
 *    other custom validator throws.
 * 8. `trim()` checks `min`/`max` on the trimmed string, so `"   "` is refused and a longer string
 *    with spaces around is accepted. → on a string whose only other rules are `min`/`max`/`length`,
 *    those become a pattern over the untrimmed value (some non-space character, and the length
 *    between the first and the last one within the bounds).
 * 9. Not joi, but the same validation step (`http/validate.ts`): a string holding U+0000 is refused
 *    (`422`). → a string without a pattern or a format gets the pattern `NO_NUL_PATTERN`.
 * 10. The fields of user text (`nameText`, `freeText` in `schemas/fields.ts`, listed in `TEXT_RULES`): their
 *    length in code points is what `minLength`/`maxLength` count; the characters they refuse become a
 *    pattern (for a trimmed field, one pattern for the trimmed length and the characters, as in 8).
 *    That a lone surrogate is refused cannot be a pattern: the description says it.
 *
 * joi-to-json silently skips what it does not know. This module does not: anything outside the
 * features listed in `SUPPORTED` throws, so a new rule in a request schema fails the OpenAPI tests
 * instead of leaving the published document less strict than the validation. Not representable in
 * JSON Schema and deliberately ignored: conversions (`lowercase`; `trim` beside a format or pattern)
 * and error messages.
 */

export type JsonSchema = { [keyword: string]: unknown };

type Rule = { name: string; args?: Record<string, unknown> };
type Ref = { path?: string[]; ancestor?: number; type?: string };
type Condition = { is?: Described; then?: Described; otherwise?: Described };
type Match = Condition & { schema?: Described; ref?: Ref; switch?: Condition[] };

/** The parts of `Joi.Description` read here. */
type Described = {
  type: string;
  flags?: Record<string, unknown>;
  rules?: Rule[];
  allow?: unknown[];
  invalid?: unknown[];
  keys?: Record<string, Described>;
  items?: Described[];
  matches?: Match[];
  dependencies?: { rel: string; peers: string[] }[];
  [other: string]: unknown;
};

/** What a description may contain: anything else throws. */
const SUPPORTED = {
  parts: new Set([
    'type',
    'flags',
    'rules',
    'allow',
    'invalid',
    'keys',
    'items',
    'matches',
    'dependencies',
    'examples',
    'preferences',
    'metas',
    'notes',
    'tags',
  ]),
  /** `label` names components; `error` is a message override; `match` is read for alternatives. */
  flags: new Set(['description', 'presence', 'default', 'only', 'unknown', 'label', 'match']),
  rules: {
    string: new Set(['min', 'max', 'length', 'pattern', 'email', 'isoDate', 'uri', 'guid']),
    number: new Set(['integer', 'min', 'max', 'greater', 'less', 'precision', 'multiple', 'sign']),
    array: new Set(['min', 'max', 'length', 'unique']),
    object: new Set(['min', 'max', 'length']),
    boolean: new Set<string>(),
    alternatives: new Set<string>(),
  } as Record<string, Set<string>>,
  dependencies: new Set(['xor', 'or']),
};
/** Rules with no JSON Schema equivalent: conversions (`trim` is read by `adjustString`, (8)). */
const IGNORED_RULES = new Set(['trim', 'case', 'normalize']);

/**
 * The ISO 4217 codes the API accepts as a `currency` (`schemas/fields.ts`: `Intl.supportedValuesOf('currency')`,
 * the list of the running Node's ICU), sorted.
 */
export const CURRENCY_CODES: readonly string[] = Object.freeze(
  [...Intl.supportedValuesOf('currency')].sort(),
);

const customMethodOf = (schema: Joi.Schema): unknown =>
  (schema.describe() as unknown as Described).rules?.find((rule) => rule.name === 'custom')?.args?.['method'];

/** The description without its custom rule: what remains is what the document states. */
const withoutCustom = (d: Described): Described => ({
  ...d,
  rules: d.rules?.filter((rule) => rule.name !== 'custom'),
});

/** (7) Custom validators the document can state, by their function: the description to convert instead. */
const KNOWN_CUSTOM = new Map<unknown, (d: Described) => Described>([
  [
    customMethodOf(currency),
    ({ rules: _rules, ...d }) => ({ ...d, flags: { ...d.flags, only: true }, allow: [...CURRENCY_CODES] }),
  ],
  // A recurring schedule's dates (API.md §6a): the pattern stays; that it is a real calendar date
  // from 2000 on is the server's check (422), said in the description.
  [customMethodOf(localDate), withoutCustom],
  // An IANA time zone: any name the server's Intl knows (aliases too), which no list here could
  // state exactly; a string, checked by the server (422).
  [customMethodOf(timeZone), withoutCustom],
  // The search and comments (API.md §5.1, §5.2): a real date-time, the number of words in `q`, a
  // comment's length in code points (not UTF-16 units) and its non-blankness: the server's checks
  // (422), said in the descriptions.
  // A timestamp (API.md §1): its RFC 3339 shape is the pattern; that the date and time exist within
  // years 0001–9999 is the server's check (422), said in the description.
  [
    customMethodOf(realTimestamp),
    (d) => ({
      ...d,
      rules: [
        ...(d.rules ?? []).filter((rule) => rule.name !== 'custom'),
        { name: 'pattern', args: { regex: `/${RFC3339_PATTERN}/` } },
      ],
    }),
  ],
  [customMethodOf(searchQuery), withoutCustom],
  // A new password (API.md §2): its length in code points is what minLength/maxLength count; that it
  // is not a common password is the server's check (422), said in the description.
  [
    customMethodOf(newPassword),
    (d) => ({
      ...d,
      rules: [
        ...(d.rules ?? []).filter((rule) => rule.name !== 'custom'),
        { name: 'min', args: { limit: PASSWORD_MIN_LENGTH } },
        { name: 'max', args: { limit: PASSWORD_MAX_LENGTH } },
      ],
    }),
  ],
]);
/** The shape of an RFC 3339 date-time with an offset (`T` and `Z` in either case, as the server takes them). */
export const RFC3339_PATTERN =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?([Zz]|[+-][0-9]{2}:[0-9]{2})$';

/** (10) The characters each kind of user text refuses, as the inside of a regex character class. */
export const TEXT_FORBIDDEN = {
  name: '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069',
  free: '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f',
} as const;

/** (10) A user-text field as rules JSON Schema can state, with a note of the rule for its description. */
function textRules(d: Described, text: TextRule): Described {
  const forbidden = TEXT_FORBIDDEN[text.kind];
  const kept = (d.rules ?? []).filter((rule) => rule.name !== 'custom');
  const what =
    text.kind === 'name'
      ? 'no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069)'
      : 'line feeds and tabs kept, no other control characters (U+0000–U+001F, U+007F–U+009F)';
  const length = text.min > 0 ? `${text.min}–${text.max}` : `at most ${text.max}`;
  const note =
    `${text.trim ? 'Surrounding whitespace is trimmed; then ' : ''}${length} characters, counted in Unicode code points` +
    `${text.notBlank ? ', not only whitespace' : ''}; ${what}; well-formed Unicode (no lone surrogates); stored as sent, not normalized.`;
  if (text.trim) {
    if (text.min < 1 || text.notBlank) unsupported('a trimmed text that may be empty');
    const pattern = trimmedLengthPattern(text.min, text.max, forbidden);
    return { ...d, rules: [...kept, { name: 'pattern', args: { regex: `/${pattern}/`, note } }] };
  }
  const pattern = text.notBlank
    ? `^[^${forbidden}]*[^\\s${forbidden}][^${forbidden}]*$`
    : `^[^${forbidden}]*$`;
  return {
    ...d,
    rules: [
      ...kept,
      ...(text.min > 0 ? [{ name: 'min', args: { limit: text.min } }] : []),
      { name: 'max', args: { limit: text.max } },
      { name: 'pattern', args: { regex: `/${pattern}/`, note } },
    ],
  };
}

/** String rules that already keep a string from being empty (or say what it must look like). */
const NON_EMPTY_RULES = new Set(['min', 'length', 'pattern', 'email', 'isoDate', 'uri', 'guid']);
/** String rules that say which characters fit (none of ours lets U+0000 through). */
const SHAPED_RULES = new Set(['pattern', 'email', 'isoDate', 'uri', 'guid']);
/** Any string without U+0000 (which `http/validate.ts` refuses before joi: PostgreSQL text cannot hold it). */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';

function unsupported(what: string): never {
  throw new Error(
    `joi-to-json-schema: unsupported ${what}; extend apps/api/src/openapi/joi-to-json-schema.ts`,
  );
}

const isOverride = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && (value as { override?: unknown }).override === true;
const literalsOf = (values: unknown[] | undefined): unknown[] => (values ?? []).filter((v) => !isOverride(v));

function numberArg(rule: Rule, arg = 'limit'): number {
  const value = rule.args?.[arg];
  if (typeof value !== 'number') unsupported(`rule ${rule.name} with a non-numeric (reference?) argument`);
  return value;
}

function adjustString(d: Described, rules: Rule[]): Rule[] {
  const out: Rule[] = [];
  for (const rule of rules) {
    if (rule.name === 'length') {
      // (5) joi-to-json ignores a string length
      out.push(
        { name: 'min', args: { limit: numberArg(rule) } },
        { name: 'max', args: { limit: numberArg(rule) } },
      );
    } else {
      if (rule.name === 'pattern') {
        const options = (rule.args?.['options'] ?? {}) as { invert?: boolean };
        if (options.invert) unsupported('inverted string pattern');
        if (rules.filter((r) => r.name === 'pattern').length > 1)
          unsupported('several patterns on one string');
        if (/\/[a-z]+$/.test(String(rule.args?.['regex'])))
          unsupported(`regex flags in ${rule.args?.['regex']}`);
      }
      out.push(rule);
    }
  }
  // (8) min/max of a trimmed string count from its first to its last non-space character
  if (d.rules?.some((rule) => rule.name === 'trim')) {
    const bounds = out.filter((rule) => rule.name === 'min' || rule.name === 'max');
    if (bounds.length === out.length && bounds.length > 0 && !literalsOf(d.allow).includes('')) {
      const min = Math.max(1, ...bounds.filter((r) => r.name === 'min').map((r) => numberArg(r)));
      const maxes = bounds.filter((r) => r.name === 'max').map((r) => numberArg(r));
      const max = maxes.length > 0 ? Math.min(...maxes) : undefined;
      const note = `Surrounding whitespace is trimmed; then ${max === undefined ? `at least ${min}` : min === max ? `${min}` : `${min}–${max}`} characters.`;
      return [{ name: 'pattern', args: { regex: `/${trimmedLengthPattern(min, max)}/`, note } }];
    }
  }
  // (1) joi rejects '' unless it is allowed
  const allowsEmpty = literalsOf(d.allow).includes('');
  if (d.flags?.['only'] !== true && !allowsEmpty && !out.some((rule) => NON_EMPTY_RULES.has(rule.name))) {
    out.push({ name: 'min', args: { limit: 1 } });
  }
  // (9) U+0000 is refused in every string before joi runs; patterns and formats already say what fits
  if (d.flags?.['only'] !== true && !out.some((rule) => SHAPED_RULES.has(rule.name))) {
    out.push({ name: 'pattern', args: { regex: `/${NO_NUL_PATTERN}/` } });
  }
  return out;
}

/**
 * A pattern for a string that, trimmed (JavaScript's `trim`: what `\s` matches), is `min` to `max`
 * characters long (`max` unbounded when undefined): surrounding whitespace, then the trimmed text.
 */
export function trimmedLengthPattern(min: number, max: number | undefined, forbidden = '\\u0000'): string {
  if (min < 1 || (max !== undefined && max < min)) unsupported(`trimmed length ${min}–${max}`);
  // U+0000 is refused anyway (9), and `forbidden` (10): not `\\S`, not `[\\s\\S]`
  const visible = `[^\\s${forbidden}]`;
  const inner = `[^${forbidden}]{${Math.max(0, min - 2)},${max === undefined ? '' : max - 2}}`;
  const trimmed = min <= 1 && max === 1 ? visible : `${visible}(?:${inner}${visible})${min <= 1 ? '?' : ''}`;
  return `^\\s*${trimmed}\\s*$`;
}

function adjustNumber(rules: Rule[]): Rule[] {
  const out = rules.map((rule): Rule => {
    if (rule.name === 'sign' && !['positive', 'negative'].includes(String(rule.args?.['sign']))) {
      unsupported(`number sign ${String(rule.args?.['sign'])}`);
    }
    // (2) precision(2) → multipleOf 0.01 (written as a literal so that it is exactly the double 0.01)
    if (rule.name === 'precision')
      return { name: 'multiple', args: { base: Number(`1e-${numberArg(rule)}`) } };
    if (['min', 'max', 'greater', 'less'].includes(rule.name)) numberArg(rule);
    if (rule.name === 'multiple') numberArg(rule, 'base');
    return rule;
  });
  // (5) joi-to-json reads `integer` only as the first rule
  return [...out.filter((rule) => rule.name === 'integer'), ...out.filter((rule) => rule.name !== 'integer')];
}

/** True when an object branch itself requires `key` to be one of `values`. */
function pinsKey(branch: Described | undefined, key: string, values: unknown[]): boolean {
  const child = branch?.keys?.[key];
  if (child?.flags?.['only'] !== true || child.flags['presence'] !== 'required') return false;
  const allowed = literalsOf(child.allow);
  return allowed.length > 0 && allowed.every((v) => values.includes(v));
}

/** (3) `conditional('.key', { switch, otherwise })` with every branch pinning `key`, minus an unreachable `otherwise`. */
function adjustConditional(match: Match): Match {
  const ref = match.ref;
  if (!ref || ref.type !== undefined || (ref.ancestor ?? 1) !== 0 || ref.path?.length !== 1) {
    unsupported('conditional on anything but a key of the value itself (".key")');
  }
  const key = ref.path[0] as string;
  const cases: Condition[] = match.switch ?? [match];
  const claimed: unknown[] = [];
  const kept: Condition[] = [];
  for (const [index, condition] of cases.entries()) {
    const is = condition.is;
    if (is?.flags?.['only'] !== true || is.flags['presence'] !== 'required' || is.rules?.length) {
      unsupported('conditional whose `is` is not a required set of literal values');
    }
    const values = literalsOf(is.allow);
    claimed.push(...values);
    if (condition.then && !pinsKey(condition.then, key, values)) {
      unsupported(`conditional branch that does not itself require "${key}" to be ${JSON.stringify(values)}`);
    }
    if (condition.otherwise) {
      if (index !== cases.length - 1) unsupported('otherwise before the last switch case');
      if (!pinsKey(condition.otherwise, key, claimed))
        unsupported('a reachable `otherwise` of a conditional');
    }
    // `is` is passed on as joi described it (joi-to-json does not read it when the condition has a ref)
    kept.push({ is, ...(condition.then ? { then: adjust(condition.then, true) } : {}) });
  }
  // joi-to-json 5.0.5 merges a lone case through an undefined variable (a ReferenceError)
  if (kept.length < 2) unsupported('a conditional with fewer than two cases');
  return { ref, switch: kept };
}

/**
 * Checks a description against `SUPPORTED` and applies the adjustments (1)–(5), recursively.
 * `inAlternative`: below an alternatives branch, where (6) cannot follow.
 */
function adjust(described: Described, inAlternative = false): Described {
  const custom = described.rules?.find((rule) => rule.name === 'custom');
  const text = custom ? TEXT_RULES.get(custom.args?.['method']) : undefined;
  const known = custom && !text ? KNOWN_CUSTOM.get(custom.args?.['method']) : undefined;
  if (custom && !known && !text) unsupported(`custom validator on ${described.type}`);
  const d = text ? textRules(described, text) : known ? known(described) : described;
  for (const part of Object.keys(d))
    if (!SUPPORTED.parts.has(part)) unsupported(`joi "${part}" on ${d.type}`);
  for (const flag of Object.keys(d.flags ?? {})) {
    if (!SUPPORTED.flags.has(flag)) unsupported(`joi flag "${flag}" on ${d.type}`);
  }
  const supported = SUPPORTED.rules[d.type];
  if (!supported) unsupported(`joi type "${d.type}"`);
  const rules = (d.rules ?? []).filter((rule) => !IGNORED_RULES.has(rule.name));
  for (const rule of rules) if (!supported.has(rule.name)) unsupported(`${d.type} rule "${rule.name}"`);
  if (d.type === 'object' && rules.length > 0 && inAlternative) {
    unsupported('object min/max/length inside alternatives');
  }
  if (typeof d.flags?.['default'] === 'function' || typeof d.flags?.['default'] === 'object') {
    unsupported('a computed or reference default');
  }
  if (d.flags?.['only'] !== true) {
    const extras = literalsOf(d.allow).filter((v) => v !== null && !(v === '' && d.type === 'string'));
    if (extras.length > 0) unsupported(`allow(${JSON.stringify(extras)}) on ${d.type} without valid()`);
  }

  const out: Described = { ...d };
  if (d.type === 'string') {
    out.rules = adjustString(d, rules);
    const note = out.rules.find((rule) => typeof rule.args?.['note'] === 'string')?.args?.['note'];
    if (typeof note === 'string') {
      const described = d.flags?.['description'];
      out.flags = { ...d.flags, description: typeof described === 'string' ? `${described}. ${note}` : note };
    }
  } else if (d.type === 'number') out.rules = adjustNumber(rules);
  else out.rules = rules;
  if (d.keys) {
    out.keys = {};
    for (const [key, child] of Object.entries(d.keys)) {
      if (child.flags?.['presence'] === 'forbidden') unsupported(`forbidden key "${key}"`);
      out.keys[key] = adjust(child, inAlternative);
    }
  }
  if (d.items) out.items = d.items.map((item) => adjust(item, inAlternative));
  for (const dependency of d.dependencies ?? []) {
    if (!SUPPORTED.dependencies.has(dependency.rel)) unsupported(`object dependency "${dependency.rel}"`);
  }
  if (d.matches) {
    out.matches = d.matches.map((match) => {
      if (match.schema) return { schema: adjust(match.schema, true) };
      if (match.ref) return adjustConditional(match);
      return unsupported('alternatives match on a schema condition');
    });
  }
  return out;
}

/** (4) `xor(a, b)`: exactly one of them is present. */
const logicalOpParser = {
  xor: (schema: JsonSchema, dependency: { peers: string[] }) => {
    schema['oneOf'] = dependency.peers.map((peer) => ({ required: [peer] }));
  },
  // `or(a, b)`: at least one is present. A bare `anyOf` beside `properties` reads to openapi-typescript
  // as a union with `unknown` (which swallows the object type); inside `allOf` it stays an intersection.
  or: (schema: JsonSchema, dependency: { peers: string[] }) => {
    schema['allOf'] = [{ anyOf: dependency.peers.map((peer) => ({ required: [peer] })) }];
  },
};

/** (6) Object `min`/`max`/`length` (joi-to-json ignores them) → `minProperties`/`maxProperties`. */
function setObjectSizes(d: Described, out: JsonSchema): void {
  if (d.type === 'object') {
    for (const rule of d.rules ?? []) {
      if (rule.name === 'min' || rule.name === 'length') out['minProperties'] = numberArg(rule);
      if (rule.name === 'max' || rule.name === 'length') out['maxProperties'] = numberArg(rule);
    }
    const properties = (out['properties'] ?? {}) as Record<string, JsonSchema>;
    for (const [key, child] of Object.entries(d.keys ?? {})) {
      if (properties[key]) setObjectSizes(child, properties[key]);
    }
  }
  if (d.type === 'array' && d.items?.length === 1 && out['items']) {
    setObjectSizes(d.items[0] as Described, out['items'] as JsonSchema);
  }
}

/** JSON Schema (2020-12, as OpenAPI 3.1 uses it) of a joi schema. */
export function joiToJsonSchema(schema: Joi.Schema): JsonSchema {
  const described = adjust(schema.describe() as unknown as Described);
  // joi-to-json reads nothing but `describe()` of what it is given.
  const adjusted = { describe: () => described } as unknown as Parameters<typeof parse>[0];
  const out = parse(adjusted, 'open-api-3.1', {}, { logicalOpParser }) as JsonSchema;
  setObjectSizes(described, out);
  return out;
}

/** The label of a joi schema (`.label('ExpenseRequest')`), used as its component name. */
export function joiLabel(schema: Joi.Schema): string {
  const label = (schema.describe().flags as { label?: unknown } | undefined)?.label;
  if (typeof label !== 'string') throw new Error('joi-to-json-schema: a request schema needs a .label()');
  return label;
}

/** OpenAPI query parameters of a joi object schema of the query string. */
export function joiQueryParameters(schema: Joi.Schema): JsonSchema[] {
  const json = joiToJsonSchema(schema);
  if (json['type'] !== 'object') unsupported('query schema that is not an object');
  const properties = (json['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json['required'] ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}
