/**
 * The Kubernetes manifests (k8s/) against the server's own settings: every overlay rendered (by
 * test/k8s/render-kustomize.ts, no kubectl needed) and validated against the Kubernetes schemas
 * (kubernetes-models); each workload's environment parsed by apps/server/src/config.ts as at boot;
 * the image run as the image test runs it, probes, drain and rollout; the dev secrets.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import { loadConfig } from '../../apps/server/src/config';
import { NODE_FLAGS_BY_ROLE } from '../../infra/fleet/node-flags';
import { PRODUCTION_RUN } from '../../infra/image/podman';
import {
  containerConfig,
  K8S,
  KNOWN_ENV,
  MODELS,
  named,
  OVERLAYS,
  ofKind,
  overlayDir,
  quantity,
  renderedOverlay,
  resolvePort,
  workloads,
} from './manifests-support';
import { type K8sObject, objectId, renderKustomization } from './render-kustomize';
import { ROOT } from './repository-files';

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
  // Rendered while the file's tests are collected: rendering is synchronous and reads local files only.
  const { objects, api, gateway, apiConfig, gatewayConfig } = renderedOverlay(overlay);

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
      'Cluster/tally-db',
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
    // NODE_OPTIONS is Node's own (the gateway's V8 flags, below), not the server's configuration;
    // PGUSER and PGPASSWORD only feed the database URLs ($(...)); DATABASE_READ_URL is wired ahead of
    // the server (manifests-postgres.test.ts holds k8s/README.md to saying whether it is read).
    const notServers = new Set(['NODE_OPTIONS', 'PGUSER', 'PGPASSWORD', 'DATABASE_READ_URL']);
    expect([...names].filter((n) => !KNOWN_ENV.has(n) && !notServers.has(n))).toEqual([]);
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
