/**
 * The fleet and the bench run what production runs, `node dist/server.js`. `ensureBuilt()` runs
 * `npm run build` first when dist/ is missing or older than a source it bundles (once per process).
 * The build goes to a sibling directory and each file is renamed into dist/, so a server started
 * from dist/ at that moment (a fleet member restarting) never reads a half-written bundle.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const DIST = path.join(ROOT, 'dist');
const BUNDLES = ['server.js', 'migrate.js'];

/** The bundle `node` runs, relative to the repository root (the fleet's and the bench's cwd). */
export const SERVER_BUNDLE = 'dist/server.js';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** The newest of every workspace's sources and of the files that decide how they are bundled. */
function newestSource(): number {
  let newest = Math.max(
    ...['package.json', 'tsconfig.json', 'tsconfig.base.json'].map(
      (f) => statSync(path.join(ROOT, f)).mtimeMs,
    ),
  );
  for (const top of ['apps', 'packages']) {
    for (const workspace of readdirSync(path.join(ROOT, top))) {
      const src = path.join(ROOT, top, workspace, 'src');
      if (statSync(src, { throwIfNoEntry: false })?.isDirectory())
        newest = Math.max(newest, newestMtime(src));
    }
  }
  return newest;
}

/** The oldest bundle's modification time, or undefined when one is missing. */
function oldestBundle(): number | undefined {
  const times = BUNDLES.map((f) => statSync(path.join(DIST, f), { throwIfNoEntry: false })?.mtimeMs);
  return times.some((t) => t === undefined) ? undefined : Math.min(...(times as number[]));
}

/** True when dist/ has to be (re)built. */
export function isStale(): boolean {
  const built = oldestBundle();
  return built === undefined || built < newestSource();
}

function build(): void {
  // A sibling of dist/ (same depth) so that the source maps' relative paths stay right after the move.
  const staging = path.join(ROOT, `dist.tmp-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    // The script's own command, with a second --outdir: esbuild takes the last one.
    const result = spawnSync('npm', ['run', '--silent', 'build', '--', `--outdir=${staging}`], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (result.status !== 0) {
      throw new Error(
        `npm run build failed (${result.status ?? result.signal}): ${result.stderr || result.error}`,
      );
    }
    mkdirSync(DIST, { recursive: true });
    // Maps first, bundles last: a bundle in dist/ always has its map beside it.
    const files = readdirSync(staging).sort((a, b) => Number(a.endsWith('.js')) - Number(b.endsWith('.js')));
    for (const file of files) renameSync(path.join(staging, file), path.join(DIST, file));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

let checked = false;

/** Builds dist/ if it is missing or stale (checked once per process); returns {@link SERVER_BUNDLE}. */
export function ensureBuilt(log: (line: string) => void = () => {}): string {
  if (!checked) {
    if (isStale()) {
      log('building dist/ (npm run build)');
      build();
    }
    checked = true;
  }
  return SERVER_BUNDLE;
}
