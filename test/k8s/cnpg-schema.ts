/**
 * The CloudNativePG `Cluster` checked against its CRD's openAPIV3Schema (vendored in k8s/schemas/, with
 * its version and source in its `$comment`), the way the API server checks it: Ajv over the schema,
 * plus what Kubernetes adds to plain JSON Schema:
 *
 * - unknown fields are errors (kubectl apply's default server-side field validation is `Strict`), so a
 *   misspelt field fails here instead of being pruned silently;
 * - `format: int32/int64` ranges, `x-kubernetes-list-type: set/map` uniqueness.
 *
 * The CEL rules (`x-kubernetes-validations`) are checked through CEL_CHECKS, each rule of the schema
 * translated by hand; a rule without a translation (a new operator version) is an error until one is
 * written. Not checked: the operator's admission webhook.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { ROOT } from './repository-files';

type Schema = { [key: string]: unknown };

export const CNPG_CLUSTER_SCHEMA_FILE = path.join(ROOT, 'k8s/schemas/postgresql.cnpg.io_v1_Cluster.json');
export const CNPG_CLUSTER_SCHEMA = JSON.parse(readFileSync(CNPG_CLUSTER_SCHEMA_FILE, 'utf8')) as Schema;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of the schema where every object with declared properties refuses the others. */
function strictFields(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strictFields);
  if (!isSchema(schema)) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    // `properties` maps field names to schemas: recurse into each schema, not the map itself.
    out[key] =
      key === 'properties' && isSchema(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strictFields(v)]))
        : strictFields(value);
  }
  if (isSchema(schema['properties']) && schema['additionalProperties'] === undefined) {
    out['additionalProperties'] = false;
  }
  return out;
}

/** The `x-kubernetes-validations` rules of the schema, by the path of the field they sit on. */
export const CEL_RULES: { path: string; rule: string }[] = [];
(function collect(schema: unknown, at: string) {
  if (!isSchema(schema)) return;
  for (const { rule } of (schema['x-kubernetes-validations'] as { rule: string }[] | undefined) ?? [])
    CEL_RULES.push({ path: at, rule });
  for (const [name, sub] of Object.entries((schema['properties'] as Schema | undefined) ?? {}))
    collect(sub, `${at}.${name}`);
  collect(schema['items'], `${at}[]`);
  collect(schema['additionalProperties'], `${at}.*`);
})(CNPG_CLUSTER_SCHEMA, '');

type Self = Schema & { [key: string]: unknown };
const has = (self: Self, field: string) => self[field] !== undefined;
const empty = (list: unknown) => list === undefined || (Array.isArray(list) && list.length === 0);

/** Each CEL rule of the schema, as JavaScript over the object at its path (`self`). */
export const CEL_CHECKS: Record<string, (self: Self) => boolean> = {
  '!(has(self.imageCatalogRef) && has(self.imageName))': (self) =>
    !(has(self, 'imageCatalogRef') && has(self, 'imageName')),
  "!has(self.builtinLocale) || self.localeProvider == 'builtin'": (self) =>
    !has(self, 'builtinLocale') || self['localeProvider'] === 'builtin',
  "!has(self.icuLocale) || self.localeProvider == 'icu'": (self) =>
    !has(self, 'icuLocale') || self['localeProvider'] === 'icu',
  "!has(self.icuRules) || self.localeProvider == 'icu'": (self) =>
    !has(self, 'icuRules') || self['localeProvider'] === 'icu',
  "self.kind == 'ImageCatalog' || self.kind == 'ClusterImageCatalog'": (self) =>
    self['kind'] === 'ImageCatalog' || self['kind'] === 'ClusterImageCatalog',
  "self.apiGroup == 'postgresql.cnpg.io'": (self) => self['apiGroup'] === 'postgresql.cnpg.io',
  "self.dataDurability!='preferred' || ((!has(self.standbyNamesPre) || self.standbyNamesPre.size()==0) && (!has(self.standbyNamesPost) || self.standbyNamesPost.size()==0))":
    (self) =>
      self['dataDurability'] !== 'preferred' ||
      (empty(self['standbyNamesPre']) && empty(self['standbyNamesPost'])),
  // On a scalar field: the value itself is `self`.
  'self > 0': (self) => (self as unknown as number) > 0,
  // A transition rule (an update may not change the field): nothing to check on a new object.
  'self == oldSelf': () => true,
};

function celErrors(object: unknown): string[] {
  const errors: string[] = [];
  for (const { path: at, rule } of CEL_RULES) {
    const check = CEL_CHECKS[rule];
    if (!check) {
      errors.push(`${at}: CEL rule not translated in test/k8s/cnpg-schema.ts: ${rule}`);
      continue;
    }
    if (/\[\]|\.\*/.test(at)) {
      errors.push(`${at}: CEL rules inside lists or maps are not checked by test/k8s/cnpg-schema.ts`);
      continue;
    }
    let self: unknown = object;
    for (const field of at.split('.').slice(1)) self = isSchema(self) ? self[field] : undefined;
    if (self !== undefined && !check(self as Self)) errors.push(`${at}: fails the CEL rule ${rule}`);
  }
  return errors;
}

function uniqueBy(items: unknown[], key: (item: unknown) => string): boolean {
  return new Set(items.map(key)).size === items.length;
}

function makeAjv(): Ajv {
  // strict: false lets Ajv ignore the documentation-only and CEL keywords it does not know.
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv, ['date-time']);
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addKeyword({
    keyword: 'x-kubernetes-list-type',
    type: 'array',
    schemaType: 'string',
    validate: function listType(kind: string, data: unknown[], parent?: Schema) {
      if (kind === 'set') return uniqueBy(data, (item) => JSON.stringify(item));
      if (kind !== 'map') return true;
      const keys = (parent?.['x-kubernetes-list-map-keys'] as string[] | undefined) ?? [];
      return uniqueBy(data, (item) => JSON.stringify(keys.map((k) => (item as Schema)[k])));
    },
  });
  return ajv;
}

const validateCluster = makeAjv().compile(strictFields(CNPG_CLUSTER_SCHEMA) as Schema);

function errorLine(error: ErrorObject): string {
  const extra =
    error.keyword === 'additionalProperties' ? ` (${String(error.params['additionalProperty'])})` : '';
  return `${error.instancePath || '/'} ${error.message ?? error.keyword}${extra}`;
}

/** The schema's complaints about a Cluster object, one line each; [] when it validates. */
export function clusterSchemaErrors(object: unknown): string[] {
  const schemaErrors = validateCluster(object) ? [] : (validateCluster.errors ?? []).map(errorLine);
  return [...schemaErrors, ...celErrors(object)];
}

/** The shape test/k8s/manifests-support.ts MODELS expects: validate() throws on an invalid object. */
export class CnpgCluster {
  constructor(private readonly data: unknown) {}
  validate(): void {
    const errors = clusterSchemaErrors(this.data);
    if (errors.length > 0) throw new Error(`postgresql.cnpg.io/v1 Cluster: ${errors.join('; ')}`);
  }
}
