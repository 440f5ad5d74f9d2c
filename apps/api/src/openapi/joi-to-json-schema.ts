import type Joi from 'joi';

/**
 * A small, strict converter from joi schemas (through `schema.describe()`) to JSON Schema 2020-12,
 * the dialect of OpenAPI 3.1. It covers exactly the joi features that `schemas.ts` uses and throws on
 * anything else, so that a new rule in a request schema fails the OpenAPI test instead of silently
 * leaving the published document less strict than the validation.
 *
 * Not representable in JSON Schema and deliberately ignored: conversions (`trim`, `lowercase`),
 * `custom` validators (e.g. "is an ISO 4217 code") and error messages.
 */

export type JsonSchema = { [keyword: string]: unknown };

type Ref = { path?: string[]; ancestor?: number; type?: string };
type Condition = { is?: Described; then?: Described; otherwise?: Described };
type Match = Condition & { schema?: Described; ref?: Ref; switch?: Condition[] };

/** The parts of `Joi.Description` this converter reads. */
type Described = {
  type: string;
  flags?: Record<string, unknown>;
  rules?: { name: string; args?: Record<string, unknown> }[];
  allow?: unknown[];
  invalid?: unknown[];
  keys?: Record<string, Described>;
  items?: Described[];
  matches?: Match[];
  dependencies?: { rel: string; peers: string[] }[];
  examples?: unknown[];
  preferences?: unknown;
  metas?: unknown[];
  notes?: unknown[];
  tags?: unknown[];
  [other: string]: unknown;
};

const HANDLED_PARTS = new Set([
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
]);
/** `label` names components; `error` is a message override; `match` is read for alternatives. */
const HANDLED_FLAGS = new Set(['description', 'presence', 'default', 'only', 'unknown', 'label', 'match']);
/** Rules with no JSON Schema equivalent: conversions and custom functions. */
const IGNORED_RULES = new Set(['trim', 'case', 'custom', 'normalize']);

function unsupported(what: string): never {
  throw new Error(
    `joi-to-json-schema: unsupported ${what}; extend apps/api/src/openapi/joi-to-json-schema.ts`,
  );
}

const isOverride = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && (value as { override?: unknown }).override === true;

const literalsOf = (values: unknown[] | undefined): unknown[] => (values ?? []).filter((v) => !isOverride(v));

/** `"/^[A-Z]{3}$/"` (joi's description of a RegExp) → `^[A-Z]{3}$`. */
function regexSource(described: unknown): string {
  const text = String(described);
  const match = /^\/(.*)\/([a-z]*)$/s.exec(text);
  if (!match) unsupported(`regex ${text}`);
  if (match[2]) unsupported(`regex flags /${match[2]} in ${text}`);
  return match[1] ?? '';
}

const numberArg = (rule: { name: string; args?: Record<string, unknown> }, arg = 'limit'): number => {
  const value = rule.args?.[arg];
  if (typeof value !== 'number') unsupported(`rule ${rule.name} with a non-numeric (reference?) argument`);
  return value;
};

function convertString(d: Described, out: JsonSchema): void {
  for (const rule of d.rules ?? []) {
    if (IGNORED_RULES.has(rule.name)) continue;
    switch (rule.name) {
      case 'min':
        out['minLength'] = numberArg(rule);
        break;
      case 'max':
        out['maxLength'] = numberArg(rule);
        break;
      case 'length':
        out['minLength'] = numberArg(rule);
        out['maxLength'] = numberArg(rule);
        break;
      case 'pattern': {
        const options = (rule.args?.['options'] ?? {}) as { invert?: boolean };
        const pattern = regexSource(rule.args?.['regex']);
        if (options.invert) out['not'] = { pattern };
        else if (out['pattern'] === undefined) out['pattern'] = pattern;
        else out['allOf'] = [...((out['allOf'] as JsonSchema[]) ?? []), { pattern }];
        break;
      }
      case 'email':
        out['format'] = 'email';
        break;
      case 'isoDate':
        out['format'] = 'date-time';
        break;
      case 'uri':
        out['format'] = 'uri';
        break;
      case 'guid':
        out['format'] = 'uuid';
        break;
      default:
        unsupported(`string rule "${rule.name}"`);
    }
  }
}

function convertNumber(d: Described, out: JsonSchema): void {
  for (const rule of d.rules ?? []) {
    if (IGNORED_RULES.has(rule.name)) continue;
    switch (rule.name) {
      case 'integer':
        out['type'] = 'integer';
        break;
      case 'min':
        out['minimum'] = numberArg(rule);
        break;
      case 'max':
        out['maximum'] = numberArg(rule);
        break;
      case 'greater':
        out['exclusiveMinimum'] = numberArg(rule);
        break;
      case 'less':
        out['exclusiveMaximum'] = numberArg(rule);
        break;
      case 'precision':
        // precision(2) → multipleOf 0.01 (written as a literal so that it is exactly the double 0.01)
        out['multipleOf'] = Number(`1e-${numberArg(rule)}`);
        break;
      case 'multiple':
        out['multipleOf'] = numberArg(rule, 'base');
        break;
      case 'sign':
        if (rule.args?.['sign'] === 'positive') out['exclusiveMinimum'] = 0;
        else if (rule.args?.['sign'] === 'negative') out['exclusiveMaximum'] = 0;
        else unsupported(`number sign ${String(rule.args?.['sign'])}`);
        break;
      default:
        unsupported(`number rule "${rule.name}"`);
    }
  }
}

function convertArray(d: Described, out: JsonSchema): void {
  for (const rule of d.rules ?? []) {
    if (IGNORED_RULES.has(rule.name)) continue;
    switch (rule.name) {
      case 'min':
        out['minItems'] = numberArg(rule);
        break;
      case 'max':
        out['maxItems'] = numberArg(rule);
        break;
      case 'length':
        out['minItems'] = numberArg(rule);
        out['maxItems'] = numberArg(rule);
        break;
      case 'unique':
        if (rule.args && Object.keys(rule.args).length > 0)
          unsupported('array unique() by comparator or path');
        out['uniqueItems'] = true;
        break;
      default:
        unsupported(`array rule "${rule.name}"`);
    }
  }
  const items = (d.items ?? []).map(convert);
  if (items.length === 1) out['items'] = items[0];
  else if (items.length > 1) out['items'] = { anyOf: items };
}

function convertObject(d: Described, out: JsonSchema): void {
  for (const rule of d.rules ?? []) {
    if (IGNORED_RULES.has(rule.name)) continue;
    switch (rule.name) {
      case 'min':
        out['minProperties'] = numberArg(rule);
        break;
      case 'max':
        out['maxProperties'] = numberArg(rule);
        break;
      case 'length':
        out['minProperties'] = numberArg(rule);
        out['maxProperties'] = numberArg(rule);
        break;
      default:
        unsupported(`object rule "${rule.name}"`);
    }
  }
  if (d.keys) {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [key, child] of Object.entries(d.keys)) {
      if (child.flags?.['presence'] === 'forbidden') unsupported(`forbidden key "${key}"`);
      properties[key] = convert(child);
      if (child.flags?.['presence'] === 'required') required.push(key);
    }
    out['properties'] = properties;
    if (required.length > 0) out['required'] = required;
    // A described object with `keys` rejects every other key unless `.unknown(true)`.
    if (d.flags?.['unknown'] !== true) out['additionalProperties'] = false;
  }
  const dependencies = d.dependencies ?? [];
  const groups: JsonSchema[] = [];
  for (const dependency of dependencies) {
    const eachRequired = dependency.peers.map((peer) => ({ required: [peer] }));
    if (dependency.rel === 'xor') groups.push({ oneOf: eachRequired });
    else if (dependency.rel === 'or') groups.push({ anyOf: eachRequired });
    else unsupported(`object dependency "${dependency.rel}"`);
  }
  if (groups.length === 1) Object.assign(out, groups[0]);
  else if (groups.length > 1) out['allOf'] = groups;
}

/** The constant values an `is` condition matches, e.g. `Joi.valid('equal')` → `['equal']`. */
function conditionValues(is: Described | undefined): unknown[] {
  if (is?.flags?.['only'] !== true || is.flags['presence'] !== 'required' || is.rules?.length) {
    unsupported('conditional whose `is` is not a required set of literal values');
  }
  return literalsOf(is.allow);
}

/** True when an object branch itself already requires `key` to be one of `values`. */
function pinsKey(branch: Described, key: string, values: unknown[]): boolean {
  const child = branch.keys?.[key];
  if (child?.flags?.['only'] !== true || child.flags['presence'] !== 'required') return false;
  const allowed = literalsOf(child.allow);
  return allowed.length > 0 && allowed.every((v) => values.includes(v));
}

function hasKeyIn(key: string, values: unknown[]): JsonSchema {
  return { type: 'object', properties: { [key]: { enum: values } }, required: [key] };
}

/**
 * `Joi.alternatives().conditional('.key', { switch: [...], otherwise })` → the branches, each one
 * constrained to its value of `key`. A branch that already pins `key` itself is used as it is; an
 * `otherwise` that can only accept values the switch already claimed can never pass and is dropped.
 */
function conditionalBranches(match: Match): JsonSchema[] {
  const ref = match.ref;
  if (!ref || ref.type !== undefined || (ref.ancestor ?? 1) !== 0 || ref.path?.length !== 1) {
    unsupported('conditional on anything but a key of the value itself (".key")');
  }
  const key = ref.path[0] as string;
  const cases: Condition[] = match.switch ?? [match];
  const branches: JsonSchema[] = [];
  const claimed: unknown[] = [];
  for (const [index, condition] of cases.entries()) {
    const values = conditionValues(condition.is);
    claimed.push(...values);
    if (condition.then) {
      branches.push(
        pinsKey(condition.then, key, values)
          ? convert(condition.then)
          : { allOf: [hasKeyIn(key, values), convert(condition.then)] },
      );
    }
    if (condition.otherwise) {
      if (index !== cases.length - 1) unsupported('otherwise before the last switch case');
      if (!pinsKey(condition.otherwise, key, claimed)) {
        branches.push({ allOf: [{ not: hasKeyIn(key, [...claimed]) }, convert(condition.otherwise)] });
      }
    }
  }
  return branches;
}

function convertAlternatives(d: Described, out: JsonSchema): void {
  if (d.rules?.length) unsupported('alternatives rules');
  const branches: JsonSchema[] = [];
  for (const match of d.matches ?? []) {
    if (match.schema) branches.push(convert(match.schema));
    else if (match.ref) branches.push(...conditionalBranches(match));
    else unsupported('alternatives match on a schema condition');
  }
  const mode = d.flags?.['match'];
  out[mode === 'all' ? 'allOf' : 'oneOf'] = branches;
}

/** Converts one described joi schema. */
function convert(d: Described): JsonSchema {
  for (const part of Object.keys(d)) if (!HANDLED_PARTS.has(part)) unsupported(`joi "${part}" on ${d.type}`);
  for (const flag of Object.keys(d.flags ?? {})) {
    if (!HANDLED_FLAGS.has(flag)) unsupported(`joi flag "${flag}" on ${d.type}`);
  }
  const out: JsonSchema = {};
  switch (d.type) {
    case 'string':
      out['type'] = 'string';
      convertString(d, out);
      break;
    case 'number':
      out['type'] = 'number';
      convertNumber(d, out);
      break;
    case 'boolean':
      out['type'] = 'boolean';
      break;
    case 'array':
      out['type'] = 'array';
      convertArray(d, out);
      break;
    case 'object':
      out['type'] = 'object';
      convertObject(d, out);
      break;
    case 'alternatives':
      convertAlternatives(d, out);
      break;
    case 'any':
      if (d.rules?.length) unsupported('rules on any()');
      break;
    default:
      unsupported(`joi type "${d.type}"`);
  }

  const allowed = literalsOf(d.allow);
  const flags = d.flags ?? {};
  if (flags['only'] === true) {
    out['enum'] = allowed;
    if (allowed.includes(null) && typeof out['type'] === 'string') out['type'] = [out['type'], 'null'];
  } else if (allowed.length > 0) {
    const nullable = allowed.includes(null);
    // joi strings reject '' unless it is allowed; below it is handled by leaving out minLength 1.
    const extras = allowed.filter(
      (v) => v !== null && !(v === '' && out['type'] === 'string' && out['minLength'] === undefined),
    );
    if (nullable) {
      if (typeof out['type'] === 'string') out['type'] = [out['type'], 'null'];
      else extras.push(null);
    }
    if (extras.length > 0) {
      const base = { ...out };
      for (const key of Object.keys(out)) delete out[key];
      out['anyOf'] = [base, { enum: extras }];
    }
  }
  // joi rejects the empty string by default; say so unless a rule or format already does.
  if (
    d.type === 'string' &&
    flags['only'] !== true &&
    !allowed.includes('') &&
    out['minLength'] === undefined &&
    out['pattern'] === undefined &&
    out['format'] === undefined
  ) {
    out['minLength'] = 1;
  }
  const invalid = literalsOf(d.invalid);
  if (invalid.length > 0) out['not'] = { enum: invalid };

  if (typeof flags['description'] === 'string') out['description'] = flags['description'];
  if (flags['default'] !== undefined) {
    if (typeof flags['default'] === 'function' || typeof flags['default'] === 'object') {
      unsupported('a computed or reference default');
    }
    out['default'] = flags['default'];
  }
  if (d.examples && d.examples.length > 0) out['examples'] = [...d.examples];
  return out;
}

/** JSON Schema (2020-12, as OpenAPI 3.1 uses it) of a joi schema. */
export function joiToJsonSchema(schema: Joi.Schema): JsonSchema {
  return convert(schema.describe() as unknown as Described);
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
