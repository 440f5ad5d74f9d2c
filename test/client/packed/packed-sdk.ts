/**
 * `@tally/client` as a user gets it: `npm pack` of packages/client (its `prepack` builds dist/), then
 * `npm install <tarball>` in a scratch project under os.tmpdir(), outside the workspace, with its own
 * package.json (the runtime dependencies come from the registry, or npm's cache). Used by
 * test/client/packed-install.test.ts and by the browser test, which runs the packed browser bundle.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BROWSER_BUNDLE } from '../../../apps/api/src/web/browser-sdk';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
export const PACKAGE_DIR = path.join(ROOT, 'packages/client');
const LOCK = path.join(os.tmpdir(), 'tally-client-pack.lock');

export type PackedSdk = {
  /** The scratch project: its package.json, node_modules and the consumer files of this directory. */
  dir: string;
  tarball: string;
  /** The tarball's files, as `npm pack` listed them (paths inside the package). */
  files: string[];
  cleanup(): void;
};

/** One `npm pack` at a time on this machine: `prepack` rewrites packages/client/dist. */
async function withPackLock<T>(work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock older than two minutes was left by a killed run.
      if (Date.now() - statSync(LOCK, { throwIfNoEntry: false })!.mtimeMs > 120_000)
        rmSync(LOCK, { force: true, recursive: true });
      if (Date.now() > deadline) throw new Error(`${LOCK} held for two minutes`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK, { force: true, recursive: true });
  }
}

const npm = (args: string[], cwd: string) =>
  run('npm', args, {
    cwd,
    env: { ...process.env, npm_config_update_notifier: 'false' },
    maxBuffer: 64 * 1024 * 1024,
  });

/**
 * Packs the SDK and installs the tarball (and `extra` packages, e.g. `typescript@7`) in a new scratch
 * project of `"type": "module"`, with the files of test/client/packed copied beside.
 */
export async function installPackedSdk(extra: string[] = []): Promise<PackedSdk> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tally-packed-'));
  try {
    const packDir = path.join(dir, '.pack');
    mkdirSync(packDir);
    const { stdout } = await withPackLock(() =>
      npm(['pack', '--json', '--pack-destination', packDir], PACKAGE_DIR),
    );
    const [info] = JSON.parse(stdout.slice(stdout.indexOf('['))) as {
      filename: string;
      files: { path: string }[];
    }[];
    if (!info) throw new Error(`npm pack said: ${stdout}`);
    const tarball = path.join(packDir, info.filename);
    const project = path.join(dir, 'app');
    mkdirSync(project);
    writeFileSync(
      path.join(project, 'package.json'),
      `${JSON.stringify({ name: 'tally-packed-consumer', private: true, type: 'module' }, null, 2)}\n`,
    );
    for (const file of readdirSync(__dirname).filter((f) => f !== 'packed-sdk.ts')) {
      cpSync(path.join(__dirname, file), path.join(project, file));
    }
    await npm(
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', tarball, ...extra],
      project,
    );
    return {
      dir: project,
      tarball,
      files: info.files.map((f) => f.path).sort(),
      cleanup: () => rmSync(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The installed package bundled for browsers by esbuild (one ES module), and the files it took. */
export async function bundlePackedSdkForBrowser(
  project: string,
): Promise<{ text: string; inputs: string[] }> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    ...BROWSER_BUNDLE,
    stdin: { contents: "export * from '@tally/client';", resolveDir: project, loader: 'js' },
    absWorkingDir: project,
    metafile: true,
    banner: { js: '// @tally/client, browser build (ES module) of the installed npm package' },
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no output for the packed SDK');
  return { text: output.text, inputs: Object.keys(result.metafile.inputs) };
}
