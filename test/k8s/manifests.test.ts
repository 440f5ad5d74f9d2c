/**
 * The container image and the Kubernetes manifests (Dockerfile, k8s/): every overlay is rendered (by
 * test/k8s/render-kustomize.ts, so no kubectl is needed), every object is validated against the
 * Kubernetes schemas (kubernetes-models), and the manifests are checked against the server's own
 * settings: apps/server/src/config.ts parses each workload's environment exactly as at boot.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import {
  HorizontalPodAutoscaler,
  type IHorizontalPodAutoscaler,
} from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { type IJob, Job } from 'kubernetes-models/batch/v1/Job';
import { type IIngress, Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { type INetworkPolicy, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import {
  type IPodDisruptionBudget,
  PodDisruptionBudget,
} from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap, type IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { type ISecret, Secret } from 'kubernetes-models/v1/Secret';
import { type IService, Service } from 'kubernetes-models/v1/Service';
import { parseAllDocuments } from 'yaml';
import { type Config, loadConfig } from '../../apps/server/src/config';
import { NODE_FLAGS_BY_ROLE } from '../../infra/fleet/node-flags';
import { PRODUCTION_RUN } from '../../infra/image/podman';
import {
  type Json,
  type K8sObject,
  KustomizeError,
  objectId,
  parseImage,
  renderKustomization,
  strategicMerge,
} from './render-kustomize';

const ROOT = path.resolve(__dirname, '../..');
const K8S = path.join(ROOT, 'k8s');
const OVERLAYS = ['dev', 'prod'] as const;
type Overlay = (typeof OVERLAYS)[number];

/**
 * Renders from a copy of k8s/ whose dev overlay has a secrets.env made by its own make-secrets.sh, as a
 * developer would (the real secrets.env is git-ignored, so a fresh clone has none).
 */
function k8sCopyWithDevSecrets(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tally-k8s-'));
  const copy = path.join(dir, 'k8s');
  cpSync(K8S, copy, { recursive: true, filter: (src) => path.basename(src) !== 'secrets.env' });
  const made = spawnSync('bash', [path.join(copy, 'overlays/dev/make-secrets.sh')], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`make-secrets.sh failed: ${made.stderr}`);
  return copy;
}
const RENDERED_K8S = k8sCopyWithDevSecrets();
afterAll(() => rmSync(path.dirname(RENDERED_K8S), { recursive: true, force: true }));
const overlayDir = (overlay: Overlay) => path.join(RENDERED_K8S, 'overlays', overlay);

/** Every kind the manifests may use, with the model that validates it. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
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
};

/** The environment variables config.ts reads: its Joi schema's keys, taken from the source. */
const KNOWN_ENV = new Set(
  [
    ...readFileSync(path.join(ROOT, 'apps/server/src/config.ts'), 'utf8').matchAll(
      /^ {2}([A-Z][A-Z0-9_]*): (?:Joi\.|integer\()/gm,
    ),
  ].map((m) => m[1] as string),
);

/** The Secret the prod overlay expects an external secret manager to create: stand-in values. */
const SECRET_STAND_INS: Record<string, string> = {
  DATABASE_URL: 'postgresql://tally:secret@postgres.example.internal:5432/tally',
  REDIS_URL: 'rediss://:secret@redis.example.internal:6379/0',
  JWT_SECRET: 'a-stand-in-secret-of-at-least-32-characters',
};

const ROOT_SCRIPTS = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;
const scriptArgv = (name: string) => (ROOT_SCRIPTS[name] ?? '').split(/\s+/).filter(Boolean);

/** What `npm run build` writes: `dist/<name>.js` for each `<name>=<entry point>` of its esbuild command. */
const BUNDLES = Object.fromEntries(
  scriptArgv('build')
    .filter((arg) => /^\w+=[^-]/.test(arg))
    .map((arg) => arg.split('=') as [string, string])
    .map(([name, entry]) => [`dist/${name}.js`, entry]),
);

// ---------------------------------------------------------------------------------------------------
// Helpers over rendered objects

type Selector = NonNullable<IDeployment['spec']>['selector'];
type Workload = { kind: 'Deployment' | 'Job'; name: string; labels: Record<string, string>; spec: IPodSpec };

function ofKind<T>(objects: K8sObject[], kind: string): T[] {
  return objects.filter((o) => o.kind === kind) as unknown as T[];
}

function named<T extends { metadata?: { name?: string } }>(list: T[], name: string): T {
  const found = list.find((o) => o.metadata?.name === name);
  if (!found) throw new Error(`no object named ${name}`);
  return found;
}

function matchesSelector(selector: Selector | undefined, labels: Record<string, string>): boolean {
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

function workloads(objects: K8sObject[]): Workload[] {
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

function secretValue(objects: K8sObject[], name: string, key: string): string | undefined {
  const secret = ofKind<ISecret>(objects, 'Secret').find((s) => s.metadata?.name === name);
  if (!secret) return name === 'tally-secrets' ? SECRET_STAND_INS[key] : undefined;
  const encoded = secret.data?.[key];
  return secret.stringData?.[key] ?? (encoded ? Buffer.from(encoded, 'base64').toString('utf8') : undefined);
}

/** The environment a container starts with, as the kubelet builds it (env overrides envFrom). */
function containerEnv(objects: K8sObject[], container: IContainer): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (!source.configMapRef || source.prefix) throw new Error(`${container.name}: unsupported envFrom`);
    const configMap = named(ofKind<IConfigMap>(objects, 'ConfigMap'), source.configMapRef.name ?? '');
    Object.assign(env, configMap.data);
  }
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) {
      env[variable.name] = variable.value;
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
function containerConfig(objects: K8sObject[], container: IContainer): Config {
  return loadConfig({ ...containerEnv(objects, container) });
}

function resolvePort(container: IContainer, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

function onlyContainer(workload: Workload): IContainer {
  expect(workload.spec.containers).toHaveLength(1);
  return workload.spec.containers[0] as IContainer;
}

const QUANTITY_FACTORS: Record<string, number> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
};
function quantity(value: string | number | undefined): number {
  if (typeof value === 'number') return value;
  const match = /^(\d+(?:\.\d+)?)(m|k|M|G|Ki|Mi|Gi)?$/.exec(value ?? '');
  if (!match) throw new Error(`unsupported quantity ${value}`);
  return Number(match[1]) * (QUANTITY_FACTORS[match[2] ?? ''] as number);
}

/** ingress-nginx annotation value as a number of seconds. */
function annotationSeconds(ingress: IIngress, name: string): number {
  const value = ingress.metadata?.annotations?.[`nginx.ingress.kubernetes.io/${name}`];
  expect(value).toMatch(/^\d+$/);
  return Number(value);
}

type Route = { ingress: IIngress; path: string; pathType: string; service: string; port: number | string };
function routes(objects: K8sObject[]): Route[] {
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
function routeMatches(route: Route, requestPath: string): boolean {
  if (route.pathType === 'Exact') return route.path === requestPath;
  const prefix = route.path.replace(/\/+$/, '');
  return prefix === '' || requestPath === prefix || requestPath.startsWith(`${prefix}/`);
}

function portNumbers(ports: { port?: number | string }[] | undefined): (number | string | undefined)[] {
  return (ports ?? []).map((p) => p.port);
}

// ---------------------------------------------------------------------------------------------------

describe('the server settings the manifests rely on', () => {
  it('are read from config.ts', () => {
    for (const name of [
      'PORT',
      'ROLE',
      'DATABASE_URL',
      'REDIS_URL',
      'JWT_SECRET',
      'SHUTDOWN_TIMEOUT_SECONDS',
    ]) {
      expect(KNOWN_ENV).toContain(name);
    }
    expect(KNOWN_ENV).toContain('WS_HEARTBEAT_MS');
    expect(KNOWN_ENV.size).toBeGreaterThanOrEqual(15);
  });
});

describe.each(OVERLAYS)('k8s/overlays/%s', (overlay) => {
  let objects: K8sObject[];
  let api: IDeployment;
  let gateway: IDeployment;
  let apiConfig: Config;
  let gatewayConfig: Config;

  beforeAll(() => {
    objects = renderKustomization(overlayDir(overlay));
    const deployments = ofKind<IDeployment>(objects, 'Deployment');
    api = named(deployments, 'tally-api');
    gateway = named(deployments, 'tally-gateway');
    apiConfig = containerConfig(objects, api.spec?.template.spec?.containers[0] as IContainer);
    gatewayConfig = containerConfig(objects, gateway.spec?.template.spec?.containers[0] as IContainer);
  });

  it('validates every object against the Kubernetes schemas', () => {
    const problems: string[] = [];
    for (const obj of objects) {
      const Model = MODELS[`${obj.apiVersion}/${obj.kind}`];
      if (!Model) {
        problems.push(`${objectId(obj)}: no model for ${obj.apiVersion} ${obj.kind}`);
        continue;
      }
      try {
        new Model(obj as never).validate();
      } catch (error) {
        problems.push(`${objectId(obj)}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('renders the expected objects, every one in the overlay namespace', () => {
    const namespaces = ofKind<K8sObject>(objects, 'Namespace');
    expect(namespaces).toHaveLength(1);
    const namespace = namespaces[0]?.metadata.name;
    for (const obj of objects) {
      if (obj.kind !== 'Namespace')
        expect([objectId(obj), obj.metadata.namespace]).toEqual([objectId(obj), namespace]);
    }
    const ids = objects.map((o) => `${o.kind}/${o.metadata.name}`).sort();
    const expected = [
      'ConfigMap/tally-config',
      'Deployment/tally-api',
      'Deployment/tally-gateway',
      'HorizontalPodAutoscaler/tally-api',
      'HorizontalPodAutoscaler/tally-gateway',
      'Ingress/tally-api',
      'Ingress/tally-gateway',
      'Job/tally-migrate',
      `Namespace/${namespace}`,
      'NetworkPolicy/tally-migrate',
      'NetworkPolicy/tally-server',
      'PodDisruptionBudget/tally-api',
      'PodDisruptionBudget/tally-gateway',
      'Service/tally-api',
      'Service/tally-gateway',
      ...(overlay === 'dev' ? ['Secret/tally-secrets'] : []),
    ].sort();
    expect(ids).toEqual(expected);
  });

  it('sets only environment variables that config.ts knows', () => {
    const names = new Set<string>();
    for (const cm of ofKind<IConfigMap>(objects, 'ConfigMap'))
      for (const k of Object.keys(cm.data ?? {})) names.add(k);
    for (const s of ofKind<ISecret>(objects, 'Secret')) {
      for (const k of Object.keys({ ...s.data, ...s.stringData })) names.add(k);
    }
    for (const w of workloads(objects))
      for (const c of w.spec.containers) for (const e of c.env ?? []) names.add(e.name);
    // NODE_OPTIONS is Node's own (the gateway's V8 flags, below), not the server's configuration.
    expect([...names].filter((n) => !KNOWN_ENV.has(n) && n !== 'NODE_OPTIONS')).toEqual([]);
    // ROLE belongs to each Deployment, not to the shared ConfigMap.
    expect(named(ofKind<IConfigMap>(objects, 'ConfigMap'), 'tally-config').data).not.toHaveProperty('ROLE');
  });

  it('runs the gateway with the Node flags the fleet and the bench give it, and the API with none', () => {
    const nodeOptions = (d: IDeployment) =>
      d.spec?.template.spec?.containers[0]?.env?.find((e) => e.name === 'NODE_OPTIONS')?.value;
    expect(nodeOptions(gateway)).toBe(NODE_FLAGS_BY_ROLE.gateway.join(' '));
    expect(NODE_FLAGS_BY_ROLE.gateway.length).toBeGreaterThan(0);
    expect(nodeOptions(api)).toBeUndefined();
  });

  it('gives every workload a configuration that config.ts accepts, with the right ROLE', () => {
    expect(apiConfig.role).toBe('api');
    expect(gatewayConfig.role).toBe('gateway');
    for (const w of workloads(objects)) {
      for (const c of w.spec.containers) expect(() => containerConfig(objects, c)).not.toThrow();
    }
    for (const config of [apiConfig, gatewayConfig]) {
      // A fleet: shared PostgreSQL and Redis, one JWT secret, production mode.
      expect(config.databaseUrl).toMatch(/^postgres(ql)?:\/\//);
      expect(config.redisUrl).toMatch(/^rediss?:\/\//);
      expect(config.jwtSecret).toBeDefined();
      expect(config.nodeEnv).toBe('production');
    }
  });

  // test/image/image.test.ts runs the image with PRODUCTION_RUN (infra/image/podman.ts): the
  // Deployments must ask for what that test ran.
  it('runs the image as the image test ran it: command, port, user, read-only root, writable paths, probes, NODE_OPTIONS', () => {
    for (const [deployment, role] of [
      [api, 'api'],
      [gateway, 'gateway'],
    ] as const) {
      const spec = deployment.spec?.template.spec as IPodSpec;
      const container = spec.containers[0] as IContainer;
      // The image's CMD, unchanged: one command for every ROLE.
      expect([role, container.command, container.args]).toEqual([role, undefined, undefined]);
      expect(container.ports?.map((p) => p.containerPort)).toEqual([PRODUCTION_RUN.port]);
      expect([spec.securityContext?.runAsUser, spec.securityContext?.runAsGroup]).toEqual([
        PRODUCTION_RUN.uid,
        PRODUCTION_RUN.gid,
      ]);
      expect(container.securityContext?.runAsUser ?? spec.securityContext?.runAsUser).toBe(
        PRODUCTION_RUN.uid,
      );
      expect(container.securityContext?.readOnlyRootFilesystem).toBe(PRODUCTION_RUN.readOnlyRootFilesystem);
      const emptyDirs = new Set((spec.volumes ?? []).filter((v) => v.emptyDir).map((v) => v.name));
      const writable = (container.volumeMounts ?? [])
        .filter((m) => emptyDirs.has(m.name))
        .map((m) => m.mountPath);
      expect(writable.sort()).toEqual([...PRODUCTION_RUN.writable].sort());
      expect(container.readinessProbe?.httpGet?.path).toBe(PRODUCTION_RUN.readinessPath);
      expect(container.livenessProbe?.httpGet?.path).toBe(PRODUCTION_RUN.livenessPath);
      if (container.startupProbe)
        expect(container.startupProbe.httpGet?.path).toBe(PRODUCTION_RUN.livenessPath);
      const nodeOptions = container.env?.find((e) => e.name === 'NODE_OPTIONS')?.value;
      expect([role, nodeOptions]).toEqual([role, PRODUCTION_RUN.nodeOptions(role)]);
    }
  });

  it('exposes PORT as the container port and probes /readyz and /healthz on it', () => {
    for (const [deployment, config] of [
      [api, apiConfig],
      [gateway, gatewayConfig],
    ] as const) {
      const container = deployment.spec?.template.spec?.containers[0] as IContainer;
      expect(deployment.spec?.template.spec?.containers).toHaveLength(1);
      expect(container.ports?.map((p) => [p.name, p.containerPort])).toEqual([['http', config.port]]);
      const { readinessProbe, livenessProbe, startupProbe } = container;
      expect(readinessProbe?.httpGet?.path).toBe('/readyz');
      expect(livenessProbe?.httpGet?.path).toBe('/healthz');
      expect(resolvePort(container, readinessProbe?.httpGet?.port)).toBe(config.port);
      expect(resolvePort(container, livenessProbe?.httpGet?.port)).toBe(config.port);
      if (startupProbe) {
        expect(startupProbe.httpGet?.path).toBe('/healthz');
        expect(resolvePort(container, startupProbe.httpGet?.port)).toBe(config.port);
      }
    }
  });

  it('lets a pod drain: grace period > preStop sleep + SHUTDOWN_TIMEOUT_SECONDS', () => {
    for (const [deployment, config] of [
      [api, apiConfig],
      [gateway, gatewayConfig],
    ] as const) {
      const spec = deployment.spec?.template.spec as IPodSpec;
      const command = spec.containers[0]?.lifecycle?.preStop?.exec?.command ?? [];
      expect(command).toEqual(['sleep', expect.stringMatching(/^\d+$/)]);
      const preStopSeconds = Number(command[1]);
      expect(preStopSeconds).toBeGreaterThan(0);
      expect(spec.terminationGracePeriodSeconds).toBeGreaterThan(
        config.shutdownTimeoutSeconds + preStopSeconds,
      );
    }
  });

  it('rolls out without losing capacity (maxUnavailable 0, maxSurge 1)', () => {
    for (const deployment of [api, gateway]) {
      expect(deployment.spec?.strategy).toEqual({
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: 0, maxSurge: 1 },
      });
    }
  });

  it('runs every pod as non-root with a read-only root filesystem and writable emptyDirs for /tmp and DATA_DIR', () => {
    for (const w of workloads(objects)) {
      const pod = w.spec.securityContext;
      expect([w.name, pod?.runAsNonRoot, pod?.runAsUser, pod?.seccompProfile?.type]).toEqual([
        w.name,
        true,
        1000,
        'RuntimeDefault',
      ]);
      expect(w.spec.automountServiceAccountToken).toBe(false);
      const emptyDirs = new Set((w.spec.volumes ?? []).filter((v) => v.emptyDir).map((v) => v.name));
      for (const c of w.spec.containers) {
        const sc = c.securityContext;
        expect([
          w.name,
          sc?.allowPrivilegeEscalation,
          sc?.readOnlyRootFilesystem,
          sc?.capabilities?.drop,
        ]).toEqual([w.name, false, true, ['ALL']]);
        expect(sc?.runAsNonRoot).not.toBe(false);
        expect(sc?.runAsUser ?? 1000).not.toBe(0);
        expect(sc?.privileged).not.toBe(true);
        const config = containerConfig(objects, c);
        const writable = (c.volumeMounts ?? []).filter((m) => emptyDirs.has(m.name)).map((m) => m.mountPath);
        // Relative DATA_DIR is relative to the image's WORKDIR.
        expect(writable).toEqual(
          expect.arrayContaining(['/tmp', path.posix.resolve(dockerWorkdir(), config.dataDir)]),
        );
      }
    }
  });

  it('requests and limits CPU and memory for every container (requests <= limits)', () => {
    for (const w of workloads(objects)) {
      for (const c of w.spec.containers) {
        for (const resource of ['cpu', 'memory']) {
          const request = quantity(c.resources?.requests?.[resource]);
          const limit = quantity(c.resources?.limits?.[resource]);
          expect(request).toBeGreaterThan(0);
          expect(request).toBeLessThanOrEqual(limit);
        }
      }
    }
  });

  it('points each Service at exactly its Deployment, on a port the container exposes', () => {
    const all = workloads(objects);
    for (const service of ofKind<IService>(objects, 'Service')) {
      const selected = all.filter((w) => matchesSelector({ matchLabels: service.spec?.selector }, w.labels));
      expect([service.metadata?.name, selected.map((w) => `${w.kind}/${w.name}`)]).toEqual([
        service.metadata?.name,
        [`Deployment/${service.metadata?.name}`],
      ]);
      const container = onlyContainer(selected[0] as Workload);
      for (const port of service.spec?.ports ?? []) {
        expect(resolvePort(container, port.targetPort ?? port.port)).toBe(
          containerConfig(objects, container).port,
        );
      }
    }
  });

  it('routes /v1/ws to the gateway with cookie affinity and WebSocket timeouts above the heartbeat', () => {
    const all = routes(objects);
    const ws = all.filter((r) => routeMatches(r, '/v1/ws'));
    // The Exact /v1/ws route outranks the /v1 prefix in ingress-nginx.
    const wsRoute = ws.find((r) => r.pathType === 'Exact');
    expect(wsRoute).toMatchObject({ path: '/v1/ws', service: 'tally-gateway' });
    const ingress = (wsRoute as Route).ingress;
    const annotations = ingress.metadata?.annotations ?? {};
    expect(annotations['nginx.ingress.kubernetes.io/affinity']).toBe('cookie');
    expect(annotations['nginx.ingress.kubernetes.io/session-cookie-name']).toMatch(/^[A-Za-z0-9_-]+$/);
    for (const timeout of ['proxy-read-timeout', 'proxy-send-timeout']) {
      expect(annotationSeconds(ingress, timeout) * 1000).toBeGreaterThan(gatewayConfig.wsHeartbeatMs);
    }
    // Everything in that Ingress goes to the gateway; the gateway's Service selects the gateway pods.
    expect(
      routes(objects)
        .filter((r) => r.ingress === ingress)
        .map((r) => r.service),
    ).toEqual(['tally-gateway']);
    const service = named(ofKind<IService>(objects, 'Service'), 'tally-gateway');
    expect(
      matchesSelector({ matchLabels: service.spec?.selector }, gateway.spec?.template.metadata?.labels ?? {}),
    ).toBe(true);
  });

  it('routes the API to the api Service without affinity, and keeps /metrics and the probes internal', () => {
    const apiRoutes = routes(objects).filter((r) => r.service === 'tally-api');
    expect(apiRoutes.some((r) => routeMatches(r, '/v1/groups'))).toBe(true);
    expect(apiRoutes.some((r) => routeMatches(r, '/docs'))).toBe(true);
    for (const r of apiRoutes) {
      expect(r.ingress.metadata?.annotations?.['nginx.ingress.kubernetes.io/affinity']).toBeUndefined();
    }
    for (const internal of ['/metrics', '/healthz', '/readyz']) {
      expect(routes(objects).filter((r) => routeMatches(r, internal))).toEqual([]);
    }
  });

  it('gives every Ingress the nginx class and backends that exist', () => {
    const services = ofKind<IService>(objects, 'Service');
    for (const ingress of ofKind<IIngress>(objects, 'Ingress')) {
      expect(ingress.spec?.ingressClassName).toBe('nginx');
    }
    for (const r of routes(objects)) {
      const service = named(services, r.service);
      const ports = (service.spec?.ports ?? []).flatMap((p) => [p.name, p.port]);
      expect(ports).toContain(r.port);
    }
  });

  it('lets ingress-nginx resend to another pod only what cannot take effect twice', () => {
    for (const ingress of ofKind<IIngress>(objects, 'Ingress')) {
      const annotations = ingress.metadata?.annotations ?? {};
      const nextUpstream = annotations['nginx.ingress.kubernetes.io/proxy-next-upstream'] ?? '';
      // Said explicitly: no `non_idempotent` (a POST or PATCH resent after it reached a pod: a second
      // group, a revoked refresh-token family), no `http_5xx` (a pod's own 503 is the client's to retry).
      expect([ingress.metadata?.name, nextUpstream.split(/\s+/).sort()]).toEqual([
        ingress.metadata?.name,
        ['error', 'timeout'],
      ]);
      const tries = Number(annotations['nginx.ingress.kubernetes.io/proxy-next-upstream-tries']);
      expect(tries).toBeGreaterThanOrEqual(1);
      expect(tries).toBeLessThanOrEqual(3);
    }
  });

  it('autoscales each Deployment (HPA autoscaling/v2) from its current replica count', () => {
    const deployments = ofKind<IDeployment>(objects, 'Deployment');
    const hpas = ofKind<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler');
    expect(hpas.map((h) => h.spec?.scaleTargetRef.name).sort()).toEqual(['tally-api', 'tally-gateway']);
    for (const hpa of hpas) {
      const ref = hpa.spec?.scaleTargetRef;
      expect([ref?.apiVersion, ref?.kind]).toEqual(['apps/v1', 'Deployment']);
      const target = named(deployments, ref?.name ?? '');
      const min = hpa.spec?.minReplicas ?? 1;
      const max = hpa.spec?.maxReplicas ?? 0;
      expect(min).toBeGreaterThanOrEqual(1);
      expect(max).toBeGreaterThanOrEqual(min);
      // An apply resets spec.replicas: keep it where the HPA rests.
      expect(target.spec?.replicas).toBe(min);
      // Utilization targets are relative to requests: every container must request the resource.
      for (const metric of hpa.spec?.metrics ?? []) {
        expect(metric.type).toBe('Resource');
        const resource = metric.resource?.name ?? '';
        for (const c of target.spec?.template.spec?.containers ?? []) {
          expect(c.resources?.requests?.[resource]).toBeDefined();
        }
      }
    }
  });

  it('protects each Deployment with a PodDisruptionBudget that selects exactly its pods', () => {
    const all = workloads(objects);
    const pdbs = ofKind<IPodDisruptionBudget>(objects, 'PodDisruptionBudget');
    expect(pdbs.map((p) => p.metadata?.name).sort()).toEqual(['tally-api', 'tally-gateway']);
    for (const pdb of pdbs) {
      const selected = all.filter((w) => matchesSelector(pdb.spec?.selector, w.labels));
      expect(selected.map((w) => `${w.kind}/${w.name}`)).toEqual([`Deployment/${pdb.metadata?.name}`]);
      // maxUnavailable never blocks a drain, whatever the replica count.
      expect(pdb.spec?.maxUnavailable).toBe(1);
      expect(pdb.spec?.minAvailable).toBeUndefined();
    }
  });

  it('lets only the ingress controller in (on PORT) and only DNS, PostgreSQL and Redis out', () => {
    const policies = ofKind<INetworkPolicy>(objects, 'NetworkPolicy');
    const selecting = (w: Workload, type: 'Ingress' | 'Egress') =>
      policies.filter(
        (p) => (p.spec?.policyTypes ?? []).includes(type) && matchesSelector(p.spec?.podSelector, w.labels),
      );
    const all = workloads(objects);
    const servers = all.filter((w) => w.kind === 'Deployment');
    expect(servers.map((w) => w.name).sort()).toEqual(['tally-api', 'tally-gateway']);

    // One policy selects both the api and the gateway pods.
    const serverPolicy = named(policies, 'tally-server');
    for (const w of servers) expect(matchesSelector(serverPolicy.spec?.podSelector, w.labels)).toBe(true);

    const databasePort = Number(new URL(apiConfig.databaseUrl as string).port || 5432);
    const redisPort = Number(new URL(apiConfig.redisUrl as string).port || 6379);
    for (const w of all) {
      // Every pod is under both an ingress and an egress policy (default deny for anything else).
      expect([w.name, selecting(w, 'Ingress').length > 0, selecting(w, 'Egress').length > 0]).toEqual([
        w.name,
        true,
        true,
      ]);
      const ingressRules = selecting(w, 'Ingress').flatMap((p) => p.spec?.ingress ?? []);
      const egressRules = selecting(w, 'Egress').flatMap((p) => p.spec?.egress ?? []);
      for (const rule of ingressRules) {
        expect(rule.from).toEqual([
          { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } },
        ]);
        expect(rule.ports).toEqual([{ protocol: 'TCP', port: apiConfig.port }]);
      }
      const egressPorts = new Set(egressRules.flatMap((r) => portNumbers(r.ports)));
      expect(egressRules.every((r) => (r.ports ?? []).length > 0)).toBe(true);
      if (w.kind === 'Deployment') {
        expect(ingressRules.length).toBeGreaterThan(0);
        expect([...egressPorts].sort()).toEqual([53, databasePort, redisPort].sort());
      } else {
        expect(ingressRules).toEqual([]);
        expect([...egressPorts].sort()).toEqual([53, databasePort].sort());
      }
      // DNS only to the cluster's DNS pods.
      for (const rule of egressRules.filter((r) => portNumbers(r.ports).includes(53))) {
        expect(rule.to).toEqual([
          {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
            podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
          },
        ]);
      }
    }
  });

  it('migrates with a Job that runs the compiled migration (`npm run migrate:prod`) with the servers’ image and settings', () => {
    const job = named(ofKind<IJob>(objects, 'Job'), 'tally-migrate');
    const spec = job.spec?.template.spec as IPodSpec;
    expect(spec.restartPolicy).toBe('Never');
    expect(job.spec?.backoffLimit).toBeGreaterThanOrEqual(1);
    const container = spec.containers[0] as IContainer;
    expect(spec.containers).toHaveLength(1);
    expect(container.command).toEqual(scriptArgv('migrate:prod'));
    expect(BUNDLES[container.command?.at(-1) as string]).toBe('apps/server/src/migrate.ts');
    const server = api.spec?.template.spec?.containers[0] as IContainer;
    expect(container.image).toBe(server.image);
    expect(container.envFrom).toEqual(server.envFrom);
    const envWithoutRole = (server.env ?? []).filter((e) => e.name !== 'ROLE');
    expect(container.env).toEqual(envWithoutRole);
    expect(containerConfig(objects, container).databaseUrl).toBe(apiConfig.databaseUrl);
  });

  it('runs one image everywhere, renamed and tagged by the overlay', () => {
    const images = new Set(workloads(objects).flatMap((w) => w.spec.containers.map((c) => c.image)));
    expect(images.size).toBe(1);
    const image = parseImage([...images][0] as string);
    expect(image.name).not.toBe('tally');
    expect(image.digest ?? image.tag).toBeDefined();
    expect(image.tag).not.toBe('latest');
  });

  it('takes DATABASE_URL, REDIS_URL and JWT_SECRET from the Secret tally-secrets', () => {
    const refs = workloads(objects).flatMap((w) =>
      w.spec.containers.flatMap((c) =>
        (c.env ?? []).map((e) => [e.name, e.valueFrom?.secretKeyRef] as const),
      ),
    );
    const secretRefs = refs.filter(([, ref]) => ref);
    expect(new Set(secretRefs.map(([name]) => name))).toEqual(
      new Set(['DATABASE_URL', 'REDIS_URL', 'JWT_SECRET', 'JWT_SECRET_PREVIOUS', 'SMTP_URL']),
    );
    for (const [name, ref] of secretRefs) {
      // The retired key exists only during a rotation, so it alone is optional.
      // So is SMTP_URL: without it, reset mails go to the log (docs/OPERATIONS.md).
      const optional = name === 'JWT_SECRET_PREVIOUS' || name === 'SMTP_URL' ? { optional: true } : {};
      expect(ref).toEqual({ name: 'tally-secrets', key: name, ...optional });
    }
    // Nothing else in the workloads reads a Secret, and the ConfigMap holds no secret.
    expect(JSON.stringify(objects.filter((o) => o.kind !== 'Secret'))).not.toMatch(/secretRef"/);
    const configData = named(ofKind<IConfigMap>(objects, 'ConfigMap'), 'tally-config').data ?? {};
    for (const name of Object.keys(SECRET_STAND_INS)) expect(configData).not.toHaveProperty(name);
    // The README tells which keys the Secret must hold.
    const readme = readFileSync(path.join(K8S, 'README.md'), 'utf8');
    for (const name of Object.keys(SECRET_STAND_INS)) expect(readme).toContain(name);

    const secrets = ofKind<ISecret>(objects, 'Secret');
    if (overlay === 'prod') {
      // An apply must never replace the real credentials with placeholders.
      expect(secrets).toEqual([]);
    } else {
      // Generated from secrets.env: placeholder URLs, and the random JWT_SECRET make-secrets.sh wrote.
      const [secret] = secrets;
      expect(Object.keys(secret?.data ?? {}).sort()).toEqual(Object.keys(SECRET_STAND_INS).sort());
      for (const name of ['DATABASE_URL', 'REDIS_URL'])
        expect(secretValue(objects, 'tally-secrets', name)).toContain('REPLACE_ME');
      expect(secretValue(objects, 'tally-secrets', 'JWT_SECRET')).toMatch(/^[A-Za-z0-9_-]{64}$/);
    }
  });

  if (overlay === 'dev') {
    it('dev: one replica of each role, debug logs', () => {
      expect(api.spec?.replicas).toBe(1);
      expect(gateway.spec?.replicas).toBe(1);
      expect(apiConfig.logLevel).toBe('debug');
      expect(gatewayConfig.logLevel).toBe('debug');
    });
  } else {
    it('prod: 3 api and 2 gateway replicas at rest, room to scale, NODE_ENV production', () => {
      expect(api.spec?.replicas).toBe(3);
      expect(gateway.spec?.replicas).toBe(2);
      for (const hpa of ofKind<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler')) {
        expect(hpa.spec?.maxReplicas).toBeGreaterThanOrEqual(2 * (hpa.spec?.minReplicas ?? 1));
      }
      expect(apiConfig.nodeEnv).toBe('production');
      expect(apiConfig.logLevel).toBe('info');
    });
  }
});

describe('dev overlay secrets', () => {
  const devDir = path.join(K8S, 'overlays/dev');
  const makeSecrets = (out: string) =>
    spawnSync('bash', [path.join(devDir, 'make-secrets.sh'), out], { encoding: 'utf8' });

  it('commits no usable JWT secret anywhere under k8s/ (secrets.env is git-ignored)', () => {
    const tracked = spawnSync('git', ['ls-files', 'k8s'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\n');
    expect(tracked).toContain('k8s/overlays/dev/secrets.env.example');
    expect(tracked).not.toContain('k8s/overlays/dev/secrets.env');
    const ignored = spawnSync('git', ['check-ignore', '-q', 'k8s/overlays/dev/secrets.env'], { cwd: ROOT });
    expect(ignored.status).toBe(0);
    for (const file of tracked.filter(Boolean)) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const [, value] of text.matchAll(/JWT_SECRET(?:_PREVIOUS)?\s*[:=]\s*["']?([^\s"'#]*)/g)) {
        // config.ts refuses a JWT_SECRET under 32 characters: anything committed must be unusable.
        expect({ file, usable: (value ?? '').length >= 32 }).toEqual({
          file,
          usable: false,
        });
      }
    }
  });

  it('make-secrets.sh writes a fresh random secret config.ts accepts, and never overwrites one', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tally-secrets-'));
    try {
      const secretOf = (file: string) => /^JWT_SECRET=(.*)$/m.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
      const [a, b] = [path.join(dir, 'a.env'), path.join(dir, 'b.env')];
      expect(makeSecrets(a).status).toBe(0);
      expect(makeSecrets(b).status).toBe(0);
      expect(secretOf(a)).not.toBe(secretOf(b));
      const config = loadConfig({
        ROLE: 'api',
        DATABASE_URL: 'postgres://db/tally',
        REDIS_URL: 'redis://redis:6379',
        JWT_SECRET: secretOf(a),
      });
      expect(config.jwtSecret).toHaveLength(64);
      const before = readFileSync(a, 'utf8');
      const again = makeSecrets(a);
      expect(again.status).not.toBe(0);
      expect(again.stderr).toMatch(/exists/);
      expect(readFileSync(a, 'utf8')).toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the committed example is not itself a usable configuration', () => {
    const example = readFileSync(path.join(devDir, 'secrets.env.example'), 'utf8');
    const jwt = /^JWT_SECRET=(.*)$/m.exec(example)?.[1];
    expect(jwt).toBe('');
    expect(existsSync(path.join(devDir, 'make-secrets.sh'))).toBe(true);
  });
});

describe('overlays compared', () => {
  it('prod requests more than dev, and allows more replicas', () => {
    const [dev, prod] = OVERLAYS.map((o) => renderKustomization(overlayDir(o)));
    for (const name of ['tally-api', 'tally-gateway']) {
      const request = (objects: K8sObject[], resource: string) =>
        quantity(
          named(ofKind<IDeployment>(objects as K8sObject[], 'Deployment'), name).spec?.template.spec
            ?.containers[0]?.resources?.requests?.[resource],
        );
      const maxReplicas = (objects: K8sObject[]) =>
        named(ofKind<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler'), name).spec?.maxReplicas ??
        0;
      for (const resource of ['cpu', 'memory']) {
        expect(request(prod as K8sObject[], resource)).toBeGreaterThan(request(dev as K8sObject[], resource));
      }
      expect(maxReplicas(prod as K8sObject[])).toBeGreaterThan(maxReplicas(dev as K8sObject[]));
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// The renderer itself

const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8', timeout: 20_000 });
const itWithKubectl = kubectl.status === 0 ? it : it.skip;

function unfoldSecretData(object: K8sObject): K8sObject {
  const data = object['data'];
  if (object.kind !== 'Secret' || typeof data !== 'object' || data === null) return object;
  const unfolded = Object.entries(data as Record<string, string>).map(([k, v]) => [k, v.replace(/\s/g, '')]);
  return { ...object, data: Object.fromEntries(unfolded) };
}

describe('render-kustomize', () => {
  itWithKubectl.each(OVERLAYS)(
    'renders %s exactly as `kubectl kustomize` does (when kubectl is installed)',
    (overlay) => {
      const result = spawnSync('kubectl', ['kustomize', overlayDir(overlay)], {
        encoding: 'utf8',
        timeout: 20_000,
      });
      if (result.status !== 0) throw new Error(`kubectl kustomize failed: ${result.stderr}`);
      // kubectl folds long base64 values over several lines; the bytes are the same.
      const theirs = parseAllDocuments(result.stdout).map((d) => unfoldSecretData(d.toJS() as K8sObject));
      const ours = renderKustomization(overlayDir(overlay));
      const byId = (list: K8sObject[]) => Object.fromEntries(list.map((o) => [objectId(o), o]));
      expect(byId(ours)).toEqual(byId(theirs));
    },
  );

  it('merges keyed lists patch-first, maps key by key, and replaces unkeyed lists', () => {
    const original: Json = {
      spec: {
        containers: [
          {
            name: 'a',
            image: 'x',
            env: [
              { name: 'X', value: '1' },
              { name: 'Z', value: '3' },
            ],
            command: ['p', 'q'],
          },
          { name: 'b', image: 'y' },
        ],
        resources: { requests: { cpu: '1', memory: '1Gi' } },
      },
    };
    const patch: Json = {
      spec: {
        containers: [
          {
            name: 'a',
            env: [
              { name: 'Y', value: '2' },
              { name: 'Z', value: '9' },
            ],
            command: ['r'],
          },
        ],
        resources: { requests: { cpu: '2' } },
      },
    };
    expect(strategicMerge(original, patch, [])).toEqual({
      spec: {
        containers: [
          {
            name: 'a',
            image: 'x',
            env: [
              { name: 'Y', value: '2' },
              { name: 'Z', value: '9' },
              { name: 'X', value: '1' },
            ],
            command: ['r'],
          },
          { name: 'b', image: 'y' },
        ],
        resources: { requests: { cpu: '2', memory: '1Gi' } },
      },
    });
    expect(strategicMerge({ a: 1, b: 2 }, { a: null }, [])).toEqual({ b: 2 });
  });

  it('refuses what it does not implement instead of rendering it wrongly', () => {
    expect(() => strategicMerge({ spec: {} }, { spec: { $patch: 'replace' } }, [])).toThrow(KustomizeError);
    expect(() => strategicMerge({ tolerations: [] }, { tolerations: [{ key: 'a' }] }, [])).toThrow(
      KustomizeError,
    );
    expect(() =>
      strategicMerge({ containers: [{ name: 'a' }] }, { containers: [{ image: 'x' }] }, []),
    ).toThrow(KustomizeError);
  });

  it('parses image references', () => {
    expect(parseImage('tally')).toEqual({ name: 'tally' });
    expect(parseImage('registry.example.com:5000/tally:1.2')).toEqual({
      name: 'registry.example.com:5000/tally',
      tag: '1.2',
    });
    expect(parseImage('tally@sha256:abc')).toEqual({ name: 'tally', digest: 'sha256:abc' });
  });
});

// ---------------------------------------------------------------------------------------------------
// The Dockerfile (which cannot be built on the development machine: no Docker engine)

type Instruction = { op: string; args: string };
type Stage = { name: string | undefined; image: string; instructions: Instruction[] };

function dockerInstructions(): Instruction[] {
  const lines = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')
    .split('\n')
    .filter((line) => !/^\s*#/.test(line));
  const joined = lines.join('\n').replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const match = /^(\S+)\s*(.*)$/.exec(line) as RegExpExecArray;
      return { op: (match[1] as string).toUpperCase(), args: (match[2] as string).trim() };
    });
}

function dockerStages(): Stage[] {
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const ins of dockerInstructions()) {
    if (ins.op === 'ARG' && stages.length === 0) {
      const [name, value = ''] = ins.args.split('=');
      args[name as string] = value;
    } else if (ins.op === 'FROM') {
      const match = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args) as RegExpExecArray;
      const image = (match[1] as string).replace(/\$\{?(\w+)\}?/g, (_m, name: string) => args[name] ?? '');
      stages.push({ name: match[2], image, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push(ins);
    }
  }
  return stages;
}

function dockerWorkdir(): string {
  const last = dockerStages().at(-1);
  return last?.instructions.filter((i) => i.op === 'WORKDIR').at(-1)?.args ?? '/';
}

describe('Dockerfile', () => {
  const stages = dockerStages();
  const runtime = stages.at(-1) as Stage;
  const ops = (stage: Stage, op: string) => stage.instructions.filter((i) => i.op === op).map((i) => i.args);

  it('is a multi-stage build on node:24-bookworm-slim unless NODE_IMAGE names another base', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.image).toBe('node:24-bookworm-slim');
    // Every stage's FROM is the build argument (npm run image passes the local base here).
    const froms = dockerInstructions().filter((i) => i.op === 'FROM');
    for (const from of froms) expect(from.args).toMatch(/^\$\{NODE_IMAGE\}(\s|$)/);
  });

  it("gives the build's npm ci no extra CA unless the npm-ca secret is mounted, and keeps scarf's analytics off", () => {
    for (const stage of stages.filter((s) => ops(s, 'RUN').some((r) => /\bnpm ci\b/.test(r)))) {
      const install = ops(stage, 'RUN').find((r) => /\bnpm ci\b/.test(r)) as string;
      expect(install).toMatch(/--mount=type=secret,id=npm-ca\b/);
      expect(ops(stage, 'ENV').join(' ')).toMatch(/\bSCARF_ANALYTICS=false\b/);
    }
  });

  it('installs every dependency in a build stage and only production dependencies for the runtime', () => {
    const runs = (stage: Stage) => ops(stage, 'RUN').join('\n');
    const full = stages.filter((s) => /\bnpm ci\b(?!.*--omit=dev)/.test(runs(s)));
    const production = stages.filter((s) => /\bnpm ci\b.*--omit=dev/.test(runs(s)));
    expect(full.length).toBeGreaterThanOrEqual(1);
    expect(production).toHaveLength(1);
    for (const stage of [...full, ...production]) {
      expect(ops(stage, 'COPY').join('\n')).toMatch(/package-lock\.json/);
    }
    // The runtime's node_modules come from the production install and nowhere else.
    const copies = ops(runtime, 'COPY').filter((c) => /node_modules/.test(c));
    expect(copies).toEqual([expect.stringMatching(new RegExp(`^--from=${production[0]?.name} `))]);
    expect(runs(runtime)).not.toMatch(/\bnpm (ci|install|i)\b/);
    expect(ops(runtime, 'COPY').join('\n')).not.toMatch(
      new RegExp(`^--from=${full[0]?.name} \\S*node_modules`, 'm'),
    );
  });

  it('runs as the non-root user node, in production mode, on the default PORT', () => {
    const users = ops(runtime, 'USER');
    expect(users.at(-1)).toBe('node');
    expect(ops(runtime, 'ENV').join(' ')).toMatch(/\bNODE_ENV=production\b/);
    expect(ops(runtime, 'EXPOSE')).toEqual([String(loadConfig({}).port)]);
    expect(dockerWorkdir()).toBe('/app');
  });

  it('starts the compiled server as `npm run start:prod` does, as PID 1 (exec form)', () => {
    const cmd = ops(runtime, 'CMD');
    expect(cmd).toHaveLength(1);
    const argv = JSON.parse(cmd[0] as string) as string[];
    expect(argv).toEqual(scriptArgv('start:prod'));
    expect(argv).not.toContain('tsx');
    expect(BUNDLES[argv.at(-1) as string]).toBe('apps/server/src/main.ts');
    expect(ops(runtime, 'ENTRYPOINT')).toEqual([]);
    // The command test/image/image.test.ts finds as the container's PID 1.
    expect(argv).toEqual(PRODUCTION_RUN.command);
  });

  it('builds dist/ (`npm run build`) after the type check, and the runtime gets dist/ but no sources', () => {
    const build = stages.find((s) => ops(s, 'RUN').some((r) => /^npm run build$/.test(r))) as Stage;
    expect(build).toBeDefined();
    const steps = build.instructions.map((i) => `${i.op} ${i.args}`);
    const at = (pattern: RegExp) => steps.findIndex((step) => pattern.test(step));
    expect(at(/^RUN npm run build$/)).toBeGreaterThan(at(/^RUN npx tsc\b/));
    expect(at(/^RUN npx tsc\b/)).toBeGreaterThan(at(/^COPY packages /));
    expect(at(/^COPY packages /)).toBeGreaterThan(at(/^RUN .*\bnpm ci$/));
    const copies = ops(runtime, 'COPY');
    expect(copies).toContain(`--from=${build.name} /app/dist ./dist`);
    expect(copies.join('\n')).not.toMatch(/\b(apps|packages|tsconfig\.json)\b/);
    // The production install has neither the loader nor the bundler: they are development dependencies,
    // of the root and of any workspace.
    type Manifest = { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    const read = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Manifest;
    const workspaces = ['apps', 'packages'].flatMap((top) =>
      readdirSync(path.join(ROOT, top)).map((name) => `${top}/${name}/package.json`),
    );
    for (const tool of ['tsx', 'esbuild']) {
      for (const file of ['package.json', ...workspaces])
        expect(read(file).dependencies?.[tool]).toBeUndefined();
      expect(read('package.json').devDependencies?.[tool]).toBeDefined();
    }
  });

  it('has a .dockerignore that keeps local state, tests, git and a local dist/ out of the context, and the sources in', () => {
    const patterns = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    for (const required of ['.git', 'test', 'coverage', 'bench-results'])
      expect(patterns).toContain(required);
    expect(patterns.some((p) => /(^|\/)node_modules$/.test(p))).toBe(true);
    expect(patterns.some((p) => /^\/?data$/.test(p))).toBe(true);
    expect(patterns.some((p) => /(^|\/)dist$/.test(p))).toBe(true);
    for (const kept of ['package.json', 'package-lock.json', 'tsconfig.json', 'apps', 'packages']) {
      expect(patterns).not.toContain(kept);
    }
  });
});
