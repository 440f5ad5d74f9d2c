/**
 * Running Tally's image with podman, as production runs it (k8s/base): the container fleet
 * (infra/fleet/fleet.ts with `containers`), the roll (infra/image/roll.ts) and the image test
 * (test/image/image.test.ts) start containers only through {@link productionRunArgs}, and
 * test/k8s/manifests-config.test.ts checks that the Deployments ask for what {@link PRODUCTION_RUN} describes.
 *
 * podman as it works on these machines (infra/image/podman.sh): runc (crun fails where cgroups are in
 * hybrid mode), file and process limits below the machine's hard limits, the host network.
 */
import { spawnSync } from 'node:child_process';
import { NODE_FLAGS_BY_ROLE } from '../fleet/node-flags';

/** The local base (`npm run image:base`) and Tally's image (`npm run image` tags it `:local`). */
export const BASE_IMAGE = process.env['TALLY_BASE_IMAGE'] ?? 'localhost/node24-bookworm-minbase:local';
export const TALLY_IMAGE = process.env['TALLY_IMAGE'] ?? 'localhost/tally';
export const LOCAL_TAG = `${TALLY_IMAGE}:local`;

/** What every container of the image gets, as k8s/base/{api,gateway}.yaml give each pod. */
export const PRODUCTION_RUN = {
  /** runAsUser/runAsGroup: the image's user `node`. */
  uid: 1000,
  gid: 1000,
  readOnlyRootFilesystem: true,
  /** The only writable paths (emptyDirs in k8s, tmpfs here): /tmp and DATA_DIR (relative to /app). */
  writable: ['/tmp', '/app/data'],
  /** The image's command for every ROLE (no `command`/`args` in a Deployment). */
  command: ['node', '--enable-source-maps', 'dist/server.js'],
  /** PORT's default (config.ts) and the containerPort. */
  port: 3000,
  readinessPath: '/readyz',
  livenessPath: '/healthz',
  /** NODE_OPTIONS per role: the gateway's V8 flag (infra/fleet/node-flags.ts); none for the API. */
  nodeOptions: (role: 'api' | 'gateway' | 'all'): string | undefined =>
    NODE_FLAGS_BY_ROLE[role].length > 0 ? NODE_FLAGS_BY_ROLE[role].join(' ') : undefined,
} as const;

const RUNTIME = ['--runtime', 'runc'];
const LIMITS = ['--ulimit', 'nofile=10000:10000', '--ulimit', 'nproc=5000:5000'];

export type PodmanResult = { status: number | null; stdout: string; stderr: string };

/** One podman command, synchronously (image queries, `kill`, `rm`). */
export function podman(args: string[], timeoutMs = 120_000): PodmanResult {
  const result = spawnSync('podman', [...RUNTIME, ...args], { encoding: 'utf8', timeout: timeoutMs });
  return {
    status: result.status,
    stdout: result.stdout ?? '',
    stderr: result.stderr ?? String(result.error ?? ''),
  };
}

/** Whether podman is installed and answers. */
export function hasPodman(): boolean {
  return spawnSync('podman', ['--version'], { stdio: 'ignore' }).status === 0;
}

export function imageExists(image: string): boolean {
  return podman(['image', 'exists', image]).status === 0;
}

/** The image's size in bytes, as `podman images` counts it. */
export function imageSize(image: string): number {
  return Number(podman(['image', 'inspect', '--format', '{{.Size}}', image]).stdout.trim());
}

/**
 * `podman run` arguments (after `run`) for one container of the image, attached (the caller's
 * process lives as long as the container; `--rm` removes it): non-root, read-only root filesystem
 * with tmpfs /tmp and DATA_DIR, no capabilities, no privilege escalation, the role's NODE_OPTIONS,
 * the host network (PORT picks the port), the image's own command.
 */
export function productionRunArgs(options: {
  name: string;
  image: string;
  role: 'api' | 'gateway' | 'all';
  env: Record<string, string>;
}): string[] {
  const nodeOptions = PRODUCTION_RUN.nodeOptions(options.role);
  const env = { ROLE: options.role, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}), ...options.env };
  return [
    ...RUNTIME,
    'run',
    '--rm',
    '--name',
    options.name,
    '--network',
    'host',
    ...LIMITS,
    '--user',
    `${PRODUCTION_RUN.uid}:${PRODUCTION_RUN.gid}`,
    '--read-only',
    '--read-only-tmpfs=false',
    ...PRODUCTION_RUN.writable.flatMap((dir) => ['--tmpfs', `${dir}:rw,mode=1777`]),
    '--cap-drop',
    'ALL',
    '--security-opt',
    'no-new-privileges',
    // podman stops nothing by itself: the fleet and the test send SIGTERM and wait for the drain.
    '--stop-timeout',
    '60',
    ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    options.image,
  ];
}

/** Sends `signal` to a running container's PID 1 (node). */
export function signalContainer(name: string, signal: 'SIGTERM' | 'SIGKILL'): void {
  podman(['kill', '--signal', signal, name]);
}
