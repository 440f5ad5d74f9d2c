/**
 * What the manifest tests share: the k8s/ overlays rendered from a copy with dev secrets (removed
 * after the file), the Kubernetes schemas, the variables config.ts reads, and the lookups the tests
 * make in the rendered objects.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { type IJob, Job } from 'kubernetes-models/batch/v1/Job';
import { type IIngress, Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap, type IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { type ISecret, Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { type Config, loadConfig } from '../../apps/server/src/config';
import { CnpgCluster } from './cnpg-schema';
import { type K8sObject, renderKustomization } from './render-kustomize';
import { ROOT } from './repository-files';

export const K8S = path.join(ROOT, 'k8s');
export const OVERLAYS = ['dev', 'prod'] as const;
export type Overlay = (typeof OVERLAYS)[number];

/**
 * Renders from a copy of k8s/ whose dev overlay has a secrets.env made by its own make-secrets.sh, as a
 * developer would (the real secrets.env is git-ignored, so a fresh clone has none).
 */
export function k8sCopyWithDevSecrets(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tally-k8s-'));
  const copy = path.join(dir, 'k8s');
  cpSync(K8S, copy, { recursive: true, filter: (src) => path.basename(src) !== 'secrets.env' });
  const made = spawnSync('bash', [path.join(copy, 'overlays/dev/make-secrets.sh')], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`make-secrets.sh failed: ${made.stderr}`);
  return copy;
}
export const RENDERED_K8S = k8sCopyWithDevSecrets();
afterAll(() => rmSync(path.dirname(RENDERED_K8S), { recursive: true, force: true }));
export const overlayDir = (overlay: Overlay) => path.join(RENDERED_K8S, 'overlays', overlay);

/** Every kind the manifests may use, with the model that validates it. */
export const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'postgresql.cnpg.io/v1/Cluster': CnpgCluster,
};

/** The environment variables config.ts reads: its Joi schema's keys, taken from the source. */
export const KNOWN_ENV = new Set(
  [
    ...readFileSync(path.join(ROOT, 'apps/server/src/config/variables.ts'), 'utf8').matchAll(
      /^ {2}([A-Z][A-Z0-9_]*): (?:Joi\.|integer\()/gm,
    ),
  ].map((m) => m[1] as string),
);

/** The Secret the prod overlay expects an external secret manager to create: stand-in values. */
export const SECRET_STAND_INS: Record<string, string> = {
  REDIS_URL: 'rediss://:secret@redis.example.internal:6379/0',
  JWT_SECRET: 'a-stand-in-secret-of-at-least-32-characters',
};

/** A CloudNativePG Cluster as far as the tests read it. */
export type CnpgClusterObject = K8sObject & {
  spec: {
    instances: number;
    bootstrap?: { initdb?: { database?: string; owner?: string; secret?: { name: string } } };
    postgresql?: {
      parameters?: Record<string, string>;
      synchronous?: { method: string; number: number; dataDurability?: string; failoverQuorum?: boolean };
    };
    [key: string]: unknown;
  };
};

/**
 * The Secret `<cluster>-app` CloudNativePG makes for a Cluster bootstrapped with initdb (its
 * pkg/specs/secrets.go): the owner, a generated password of 64 letters and digits, the database.
 */
export function cnpgAppSecret(cluster: CnpgClusterObject): Record<string, string> {
  const dbname = cluster.spec.bootstrap?.initdb?.database ?? 'app';
  const username = cluster.spec.bootstrap?.initdb?.owner ?? dbname;
  const password = 'Stand1nPassw0rd'.repeat(5).slice(0, 64);
  const host = `${cluster.metadata.name}-rw`;
  return {
    username,
    user: username,
    password,
    dbname,
    host,
    port: '5432',
    uri: `postgresql://${username}:${password}@${host}.${cluster.metadata.namespace}:5432/${dbname}`,
  };
}

// ---------------------------------------------------------------------------------------------------
// Helpers over rendered objects

export type Selector = NonNullable<IDeployment['spec']>['selector'];
export type Workload = {
  kind: 'Deployment' | 'Job';
  name: string;
  labels: Record<string, string>;
  spec: IPodSpec;
};

export function ofKind<T>(objects: K8sObject[], kind: string): T[] {
  return objects.filter((o) => o.kind === kind) as unknown as T[];
}

export function named<T extends { metadata?: { name?: string } }>(list: T[], name: string): T {
  const found = list.find((o) => o.metadata?.name === name);
  if (!found) throw new Error(`no object named ${name}`);
  return found;
}

export function matchesSelector(selector: Selector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  const { matchLabels = {}, matchExpressions = [] } = selector;
  if (Object.keys(matchLabels).length === 0 && matchExpressions.length === 0) return false;
  for (const [key, value] of Object.entries(matchLabels)) if (labels[key] !== value) return false;
  for (const { key, operator, values = [] } of matchExpressions) {
    const has = key in labels;
    const value = labels[key] ?? '';
    const ok =
      operator === 'In'
        ? has && values.includes(value)
        : operator === 'NotIn'
          ? !has || !values.includes(value)
          : operator === 'Exists'
            ? has
            : operator === 'DoesNotExist'
              ? !has
              : false;
    if (!ok) return false;
  }
  return true;
}

export function workloads(objects: K8sObject[]): Workload[] {
  const deployments = ofKind<IDeployment>(objects, 'Deployment').map((d) => ({
    kind: 'Deployment' as const,
    name: d.metadata?.name ?? '',
    labels: d.spec?.template.metadata?.labels ?? {},
    spec: d.spec?.template.spec as IPodSpec,
  }));
  const jobs = ofKind<IJob>(objects, 'Job').map((j) => ({
    kind: 'Job' as const,
    name: j.metadata?.name ?? '',
    labels: j.spec?.template.metadata?.labels ?? {},
    spec: j.spec?.template.spec as IPodSpec,
  }));
  return [...deployments, ...jobs];
}

export function secretValue(objects: K8sObject[], name: string, key: string): string | undefined {
  const secret = ofKind<ISecret>(objects, 'Secret').find((s) => s.metadata?.name === name);
  if (!secret && name === 'tally-secrets') return SECRET_STAND_INS[key];
  // Made by the operator at run time, unless the Cluster names a Secret of its own.
  const cluster = ofKind<CnpgClusterObject>(objects, 'Cluster').find(
    (c) => c.spec.bootstrap?.initdb?.secret === undefined && `${c.metadata.name}-app` === name,
  );
  if (!secret) return cluster ? cnpgAppSecret(cluster)[key] : undefined;
  const encoded = secret.data?.[key];
  return secret.stringData?.[key] ?? (encoded ? Buffer.from(encoded, 'base64').toString('utf8') : undefined);
}

/**
 * `$(NAME)` in an env value, as the kubelet expands it: NAME defined before it (envFrom or earlier in
 * env) is replaced, `$$` is a literal `$`, anything else stays as written.
 */
export function expandEnvValue(value: string, env: Record<string, string>): string {
  return value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (match, name: string | undefined) =>
    name === undefined ? '$' : (env[name] ?? match),
  );
}

/** The environment a container starts with, as the kubelet builds it (env overrides envFrom). */
export function containerEnv(objects: K8sObject[], container: IContainer): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (!source.configMapRef || source.prefix) throw new Error(`${container.name}: unsupported envFrom`);
    const configMap = named(ofKind<IConfigMap>(objects, 'ConfigMap'), source.configMapRef.name ?? '');
    Object.assign(env, configMap.data);
  }
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) {
      env[variable.name] = expandEnvValue(variable.value, env);
      continue;
    }
    const ref = variable.valueFrom?.secretKeyRef;
    if (!ref) throw new Error(`${container.name}: ${variable.name} must be a value or a secretKeyRef`);
    const value = secretValue(objects, ref.name ?? '', ref.key);
    if (value === undefined && ref.optional) continue;
    if (value === undefined) throw new Error(`${container.name}: secret ${ref.name}/${ref.key} is missing`);
    env[variable.name] = value;
  }
  return env;
}

/** The server's effective configuration for a container: config.ts on the rendered environment. */
export function containerConfig(objects: K8sObject[], container: IContainer): Config {
  return loadConfig({ ...containerEnv(objects, container) });
}

export function resolvePort(container: IContainer, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

export function onlyContainer(workload: Workload): IContainer {
  expect(workload.spec.containers).toHaveLength(1);
  return workload.spec.containers[0] as IContainer;
}

export const QUANTITY_FACTORS: Record<string, number> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
};
export function quantity(value: string | number | undefined): number {
  if (typeof value === 'number') return value;
  const match = /^(\d+(?:\.\d+)?)(m|k|M|G|Ki|Mi|Gi)?$/.exec(value ?? '');
  if (!match) throw new Error(`unsupported quantity ${value}`);
  return Number(match[1]) * (QUANTITY_FACTORS[match[2] ?? ''] as number);
}

/** ingress-nginx annotation value as a number of seconds. */
export function annotationSeconds(ingress: IIngress, name: string): number {
  const value = ingress.metadata?.annotations?.[`nginx.ingress.kubernetes.io/${name}`];
  expect(value).toMatch(/^\d+$/);
  return Number(value);
}

export type Route = {
  ingress: IIngress;
  path: string;
  pathType: string;
  service: string;
  port: number | string;
};
export function routes(objects: K8sObject[]): Route[] {
  return ofKind<IIngress>(objects, 'Ingress').flatMap((ingress) =>
    (ingress.spec?.rules ?? []).flatMap((rule) =>
      (rule.http?.paths ?? []).map((p) => ({
        ingress,
        path: p.path ?? '',
        pathType: p.pathType,
        service: p.backend.service?.name ?? '',
        port: p.backend.service?.port?.name ?? p.backend.service?.port?.number ?? '',
      })),
    ),
  );
}

/** Whether an Ingress path routes a request path (Kubernetes' Exact and element-wise Prefix). */
export function routeMatches(route: Route, requestPath: string): boolean {
  if (route.pathType === 'Exact') return route.path === requestPath;
  const prefix = route.path.replace(/\/+$/, '');
  return prefix === '' || requestPath === prefix || requestPath.startsWith(`${prefix}/`);
}

export function portNumbers(
  ports: { port?: number | string }[] | undefined,
): (number | string | undefined)[] {
  return (ports ?? []).map((p) => p.port);
}

/** One overlay rendered, with its two Deployments and the configuration config.ts makes of each. */
export function renderedOverlay(overlay: Overlay) {
  const objects = renderKustomization(overlayDir(overlay));
  const deployments = ofKind<IDeployment>(objects, 'Deployment');
  const api = named(deployments, 'tally-api');
  const gateway = named(deployments, 'tally-gateway');
  return {
    objects,
    api,
    gateway,
    apiConfig: containerConfig(objects, api.spec?.template.spec?.containers[0] as IContainer),
    gatewayConfig: containerConfig(objects, gateway.spec?.template.spec?.containers[0] as IContainer),
  };
}
