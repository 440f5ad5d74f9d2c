/**
 * The Kubernetes manifests (k8s/), every overlay rendered: what each pod may do and use (security
 * context, resources), how traffic reaches it (Services, Ingress, NetworkPolicy), how it scales and
 * survives disruption (HPA, PodDisruptionBudget), the migration Job, the image and the Secret.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import {
  annotationSeconds,
  containerConfig,
  K8S,
  matchesSelector,
  named,
  OVERLAYS,
  ofKind,
  onlyContainer,
  portNumbers,
  quantity,
  type Route,
  renderedOverlay,
  resolvePort,
  routeMatches,
  routes,
  SECRET_STAND_INS,
  secretValue,
  type Workload,
  workloads,
} from './manifests-support';
import { parseImage } from './render-kustomize';
import { BUNDLES, dockerWorkdir, scriptArgv } from './repository-files';

describe.each(OVERLAYS)('k8s/overlays/%s', (overlay) => {
  // Rendered while the file's tests are collected: rendering is synchronous and reads local files only.
  const { objects, api, gateway, apiConfig, gatewayConfig } = renderedOverlay(overlay);

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
    // Not ROLE, and not the replicas' URL: migrations run on the primary.
    const envForJob = (server.env ?? []).filter((e) => !['ROLE', 'DATABASE_READ_URL'].includes(e.name));
    expect(container.env).toEqual(envForJob);
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

  it('takes REDIS_URL and JWT_SECRET from the Secret tally-secrets, the database credentials from CloudNativePG’s', () => {
    const refs = workloads(objects).flatMap((w) =>
      w.spec.containers.flatMap((c) =>
        (c.env ?? []).map((e) => [e.name, e.valueFrom?.secretKeyRef] as const),
      ),
    );
    const secretRefs = refs.filter(([, ref]) => ref);
    expect(new Set(secretRefs.map(([name]) => name))).toEqual(
      new Set(['PGUSER', 'PGPASSWORD', 'REDIS_URL', 'JWT_SECRET', 'JWT_SECRET_PREVIOUS', 'SMTP_URL']),
    );
    const databaseKeys: Record<string, string> = { PGUSER: 'username', PGPASSWORD: 'password' };
    for (const [name, ref] of secretRefs) {
      const databaseKey = databaseKeys[name];
      if (databaseKey) {
        expect(ref).toEqual({ name: 'tally-db-app', key: databaseKey });
        continue;
      }
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
      expect(secretValue(objects, 'tally-secrets', 'REDIS_URL')).toContain('REPLACE_ME');
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
