/**
 * A small kustomize renderer for the tests of k8s/: no kubectl or kustomize binary is needed.
 *
 * It implements exactly the features k8s/ uses, as kustomize v5 does, and throws on anything else (an
 * unknown kustomization field, a patch directive, a list it does not know how to merge), so that a
 * manifest change that needs more of kustomize fails loudly here instead of rendering wrongly:
 *
 * - `resources`: YAML files (several documents each) and directories holding a kustomization.yaml
 * - `namespace`: set on every namespaced object (a Namespace object must already carry that name)
 * - `labels`: `pairs` added to every object's metadata.labels (not selectors, not templates)
 * - `images`: `name` with `newName` / `newTag` / `digest`, on pod-template containers
 * - `patches`: `path` to strategic-merge patch documents, each naming its target by kind and name
 * - `secretGenerator`: `name` and `envs` (KEY=value files, `#` comments), with
 *   `generatorOptions.disableNameSuffixHash: true` (the hash suffix kustomize would compute is not
 *   implemented: a generator without that option is refused)
 *
 * When kubectl is installed, test/k8s/render-kustomize.test.ts compares this output with
 * `kubectl kustomize`.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
};

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const SUPPORTED_FIELDS = new Set([
  'apiVersion',
  'kind',
  'resources',
  'namespace',
  'labels',
  'images',
  'patches',
  'secretGenerator',
  'generatorOptions',
]);
/** Kinds without a namespace that k8s/ may use (others are not supported: throw). */
const CLUSTER_SCOPED = new Set(['Namespace']);
const KNOWN_CLUSTER_SCOPED = new Set([
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'IngressClass',
  'PersistentVolume',
  'PriorityClass',
  'StorageClass',
]);
/** Kinds whose pod template is at spec.template (where `images` applies). */
const POD_TEMPLATE_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job']);

/**
 * Strategic-merge keys of the lists a patch may contain, by field name (as in the Kubernetes API's
 * patchMergeKey). Lists named in REPLACED_LISTS have no merge key: a patch replaces them whole. Any
 * other list in a patch is refused.
 */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  imagePullSecrets: 'name',
};
const REPLACED_LISTS = new Set(['command', 'args', 'drop', 'add', 'values']);

export class KustomizeError extends Error {
  override name = 'KustomizeError';
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

function findKustomization(dir: string): string {
  for (const name of KUSTOMIZATION_FILES) {
    const file = path.join(dir, name);
    if (existsSync(file)) return file;
  }
  throw new KustomizeError(`no kustomization.yaml in ${dir}`);
}

/** Parses every document of a YAML file; empty documents are skipped. */
export function readYamlDocuments(file: string): unknown[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  const values: unknown[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) {
      throw new KustomizeError(`${file}: ${doc.errors[0]?.message}`);
    }
    const value: unknown = doc.toJS();
    if (value !== null && value !== undefined) values.push(value);
  }
  return values;
}

function asObject(value: unknown, where: string): K8sObject {
  if (!isObject(value)) throw new KustomizeError(`${where}: not a mapping`);
  const { apiVersion, kind, metadata } = value;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
    throw new KustomizeError(`${where}: apiVersion and kind are required`);
  }
  if (!isObject(metadata) || typeof metadata['name'] !== 'string') {
    throw new KustomizeError(`${where}: metadata.name is required`);
  }
  if (KNOWN_CLUSTER_SCOPED.has(kind)) {
    throw new KustomizeError(`${where}: cluster-scoped kind ${kind} is not supported by this renderer`);
  }
  return value as unknown as K8sObject;
}

export function objectId(obj: K8sObject): string {
  return `${obj.kind}/${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
}

/** Renders the kustomization in `dir` (a directory holding kustomization.yaml). */
export function renderKustomization(dir: string): K8sObject[] {
  const file = findKustomization(dir);
  const [kustomization, ...extra] = readYamlDocuments(file);
  if (!isObject(kustomization) || extra.length > 0) {
    throw new KustomizeError(`${file}: expected one mapping`);
  }
  for (const key of Object.keys(kustomization)) {
    if (!SUPPORTED_FIELDS.has(key)) {
      throw new KustomizeError(`${file}: field "${key}" is not supported by this renderer`);
    }
  }
  if (kustomization['kind'] !== undefined && kustomization['kind'] !== 'Kustomization') {
    throw new KustomizeError(`${file}: kind must be Kustomization`);
  }

  let objects = loadResources(dir, kustomization['resources'], file);
  objects.push(
    ...generateSecrets(dir, kustomization['secretGenerator'], kustomization['generatorOptions'], file),
  );
  objects = applyPatches(dir, objects, kustomization['patches'], file);
  objects = applyNamespace(objects, kustomization['namespace'], file);
  objects = applyLabels(objects, kustomization['labels'], file);
  objects = applyImages(objects, kustomization['images'], file);
  return objects;
}

function listField(value: Json | undefined, field: string, file: string): Json[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new KustomizeError(`${file}: ${field} must be a list`);
  return value;
}

function loadResources(dir: string, resources: Json | undefined, file: string): K8sObject[] {
  const objects: K8sObject[] = [];
  const seen = new Set<string>();
  for (const entry of listField(resources, 'resources', file)) {
    if (typeof entry !== 'string') throw new KustomizeError(`${file}: resources entries must be paths`);
    const target = path.resolve(dir, entry);
    if (!existsSync(target)) throw new KustomizeError(`${file}: resource ${entry} does not exist`);
    const loaded = statSync(target).isDirectory()
      ? renderKustomization(target)
      : readYamlDocuments(target).map((doc, i) => asObject(doc, `${target} document ${i + 1}`));
    for (const obj of loaded) {
      const id = objectId(obj);
      if (seen.has(id)) throw new KustomizeError(`${file}: ${id} is defined twice`);
      seen.add(id);
      objects.push(obj);
    }
  }
  return objects;
}

/** Reads a kustomize env file: `KEY=value` lines; blank lines and `#` comments are skipped. */
function readEnvFile(envFile: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of readFileSync(envFile, 'utf8').split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const eq = trimmed.indexOf('=');
    if (eq <= 0) throw new KustomizeError(`${envFile}: "${trimmed}" is not KEY=value`);
    values[trimmed.slice(0, eq)] = trimmed.slice(eq + 1);
  }
  return values;
}

function generateSecrets(dir: string, generators: Json | undefined, options: Json | undefined, file: string) {
  const entries = listField(generators, 'secretGenerator', file);
  if (entries.length === 0) return [];
  if (!isObject(options) || options['disableNameSuffixHash'] !== true || Object.keys(options).length !== 1) {
    throw new KustomizeError(
      `${file}: secretGenerator needs generatorOptions: {disableNameSuffixHash: true}`,
    );
  }
  return entries.map((entry): K8sObject => {
    if (!isObject(entry) || typeof entry['name'] !== 'string' || !Array.isArray(entry['envs'])) {
      throw new KustomizeError(
        `${file}: only secretGenerator entries of the form {name, envs} are supported`,
      );
    }
    const data: Record<string, string> = {};
    for (const envs of entry['envs']) {
      if (typeof envs !== 'string') throw new KustomizeError(`${file}: envs entries must be paths`);
      const envFile = path.resolve(dir, envs);
      if (!existsSync(envFile)) throw new KustomizeError(`${file}: env file ${envs} does not exist`);
      for (const [key, value] of Object.entries(readEnvFile(envFile))) {
        data[key] = Buffer.from(value, 'utf8').toString('base64');
      }
    }
    return { apiVersion: 'v1', kind: 'Secret', metadata: { name: entry['name'] }, type: 'Opaque', data };
  });
}

function applyPatches(dir: string, objects: K8sObject[], patches: Json | undefined, file: string) {
  let result = objects;
  for (const entry of listField(patches, 'patches', file)) {
    if (!isObject(entry) || typeof entry['path'] !== 'string' || Object.keys(entry).length !== 1) {
      throw new KustomizeError(`${file}: only patches of the form {path: file} are supported`);
    }
    const patchFile = path.resolve(dir, entry['path']);
    for (const [i, doc] of readYamlDocuments(patchFile).entries()) {
      const patch = asObject(doc, `${patchFile} document ${i + 1}`);
      const matches = result.filter(
        (obj) =>
          obj.kind === patch.kind &&
          obj.apiVersion === patch.apiVersion &&
          obj.metadata.name === patch.metadata.name &&
          (patch.metadata.namespace === undefined || obj.metadata.namespace === patch.metadata.namespace),
      );
      if (matches.length !== 1) {
        throw new KustomizeError(
          `${patchFile}: patch for ${patch.kind}/${patch.metadata.name} matches ${matches.length} objects`,
        );
      }
      const target = matches[0] as K8sObject;
      const merged = strategicMerge(
        target as unknown as JsonObject,
        patch as unknown as JsonObject,
        [],
      ) as unknown as K8sObject;
      result = result.map((obj) => (obj === target ? merged : obj));
    }
  }
  return result;
}

/**
 * Strategic merge as kustomize does it for the subset above: maps merge key by key (null deletes a
 * key); keyed lists merge element by element, the patch's elements first (in its order), then the
 * original elements the patch did not mention; REPLACED_LISTS are replaced; scalars are replaced.
 */
export function strategicMerge(original: Json | undefined, patch: Json, fieldPath: string[]): Json {
  if (isObject(patch)) {
    for (const key of Object.keys(patch)) {
      if (key.startsWith('$')) {
        throw new KustomizeError(`patch directive ${key} at ${fieldPath.join('.')} is not supported`);
      }
    }
    if (!isObject(original)) return stripNulls(patch);
    const merged: JsonObject = clone(original);
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete merged[key];
      else merged[key] = strategicMerge(original[key], value, [...fieldPath, key]);
    }
    return merged;
  }
  if (Array.isArray(patch)) {
    const field = fieldPath[fieldPath.length - 1] ?? '';
    const mergeKey = MERGE_KEYS[field];
    if (mergeKey === undefined) {
      if (!REPLACED_LISTS.has(field)) {
        throw new KustomizeError(`patching the list ${fieldPath.join('.')} is not supported`);
      }
      return clone(patch);
    }
    const originals = Array.isArray(original) ? original : [];
    const keyOf = (item: Json, where: string): Json => {
      if (!isObject(item) || item[mergeKey] === undefined) {
        throw new KustomizeError(`${where}: list element without its merge key "${mergeKey}"`);
      }
      return item[mergeKey] as Json;
    };
    const patched = patch.map((item) => {
      const key = keyOf(item, fieldPath.join('.'));
      const match = originals.find((o) => isObject(o) && o[mergeKey] === key);
      return strategicMerge(match, item, [...fieldPath, String(key)]);
    });
    const patchKeys = new Set(patch.map((item) => keyOf(item, fieldPath.join('.'))));
    const rest = originals.filter((o) => !patchKeys.has(keyOf(o, fieldPath.join('.'))));
    return [...patched, ...clone(rest)];
  }
  return patch;
}

function stripNulls(value: Json): Json {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) if (v !== null) out[key] = stripNulls(v);
  return out;
}

function applyNamespace(objects: K8sObject[], namespace: Json | undefined, file: string): K8sObject[] {
  if (namespace === undefined) return objects;
  if (typeof namespace !== 'string') throw new KustomizeError(`${file}: namespace must be a string`);
  return objects.map((obj) => {
    if (CLUSTER_SCOPED.has(obj.kind)) {
      // kustomize renames a Namespace object to the namespace: k8s/ avoids relying on that.
      if (obj.kind === 'Namespace' && obj.metadata.name !== namespace) {
        throw new KustomizeError(
          `${file}: Namespace ${obj.metadata.name} differs from namespace ${namespace}`,
        );
      }
      return obj;
    }
    const copy = clone(obj);
    copy.metadata.namespace = namespace;
    return copy;
  });
}

function applyLabels(objects: K8sObject[], labels: Json | undefined, file: string): K8sObject[] {
  let result = objects;
  for (const entry of listField(labels, 'labels', file)) {
    if (!isObject(entry) || !isObject(entry['pairs'])) {
      throw new KustomizeError(`${file}: labels entries need pairs`);
    }
    for (const key of Object.keys(entry)) {
      if (key === 'pairs') continue;
      if ((key === 'includeSelectors' || key === 'includeTemplates') && entry[key] === false) continue;
      throw new KustomizeError(`${file}: labels.${key} is not supported by this renderer`);
    }
    const pairs = entry['pairs'];
    for (const value of Object.values(pairs)) {
      if (typeof value !== 'string') throw new KustomizeError(`${file}: label values must be strings`);
    }
    result = result.map((obj) => {
      const copy = clone(obj);
      copy.metadata.labels = { ...(copy.metadata.labels ?? {}), ...(pairs as Record<string, string>) };
      return copy;
    });
  }
  return result;
}

/** Splits an image reference into its name and its tag or digest (`:tag`, `@sha256:...`). */
export function parseImage(image: string): { name: string; tag?: string; digest?: string } {
  const at = image.indexOf('@');
  if (at >= 0) return { name: image.slice(0, at), digest: image.slice(at + 1) };
  const lastSlash = image.lastIndexOf('/');
  const colon = image.indexOf(':', lastSlash + 1);
  if (colon >= 0) return { name: image.slice(0, colon), tag: image.slice(colon + 1) };
  return { name: image };
}

function applyImages(objects: K8sObject[], images: Json | undefined, file: string): K8sObject[] {
  const rules = listField(images, 'images', file).map((entry) => {
    if (!isObject(entry) || typeof entry['name'] !== 'string') {
      throw new KustomizeError(`${file}: images entries need a name`);
    }
    for (const [key, value] of Object.entries(entry)) {
      if (!['name', 'newName', 'newTag', 'digest'].includes(key) || typeof value !== 'string') {
        throw new KustomizeError(`${file}: images.${key} is not supported by this renderer`);
      }
    }
    return entry as { name: string; newName?: string; newTag?: string; digest?: string };
  });
  if (rules.length === 0) return objects;
  return objects.map((obj) => {
    if (!POD_TEMPLATE_KINDS.has(obj.kind)) return obj;
    const copy = clone(obj);
    const podSpec = (copy['spec'] as JsonObject | undefined)?.['template'];
    const spec = isObject(podSpec) ? podSpec['spec'] : undefined;
    if (!isObject(spec)) return copy;
    for (const field of ['containers', 'initContainers']) {
      const containers = spec[field];
      if (!Array.isArray(containers)) continue;
      for (const container of containers) {
        if (!isObject(container) || typeof container['image'] !== 'string') continue;
        const current = parseImage(container['image']);
        const rule = rules.find((r) => r.name === current.name);
        if (!rule) continue;
        let image = rule.newName ?? current.name;
        if (rule.digest !== undefined) image += `@${rule.digest}`;
        else if (rule.newTag !== undefined) image += `:${rule.newTag}`;
        else if (current.digest !== undefined) image += `@${current.digest}`;
        else if (current.tag !== undefined) image += `:${current.tag}`;
        container['image'] = image;
      }
    }
    return copy;
  });
}
