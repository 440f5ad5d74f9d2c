/**
 * This run's migrated embedded database (PGlite), made once and copied into the DATA_DIR of each
 * server process on the embedded default: the process opens a copy instead of creating and
 * migrating a database of its own, which took most of its start (seconds of CPU each, a minute on
 * a loaded machine). `spawnServer` uses it unless told to start as a user's first `npm start` does.
 *
 * Made by make-embedded-template.ts in a directory named by the run id, by whichever worker gets
 * there first (a lock directory); the others wait for it. Global teardown removes it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { currentRunId } from './run-info';
import { until } from './until';

const ROOT = path.resolve(__dirname, '../..');

/** Where this run's template lives: `<tmp>/tally-test-pglite-<runid>/pg` once ready. */
export function embeddedTemplateDir(runId: string = currentRunId()): string {
  return path.join(os.tmpdir(), `tally-test-pglite-${runId}`);
}

async function make(root: string, env: Record<string, string>): Promise<void> {
  const staging = path.join(root, `staging-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/support/make-embedded-template.ts', staging],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) throw new Error(`making the embedded template failed (${code ?? signal}): ${stderr}`);
  renameSync(path.join(staging, 'pg'), path.join(root, 'pg'));
  rmSync(staging, { recursive: true, force: true });
}

let ready: Promise<string> | undefined;

/** The migrated template's `pg` directory; `env` is the server's (NODE_ENV, JWT_SECRET …). */
export function embeddedTemplate(env: Record<string, string>): Promise<string> {
  ready ??= (async () => {
    const root = embeddedTemplateDir();
    const pg = path.join(root, 'pg');
    if (existsSync(pg)) return pg;
    mkdirSync(root, { recursive: true });
    let mine = false;
    try {
      mkdirSync(path.join(root, 'lock'));
      mine = true;
    } catch {
      // Another worker is making it.
    }
    const failed = path.join(root, 'failed');
    if (mine) {
      try {
        await make(root, env);
      } catch (error) {
        writeFileSync(failed, error instanceof Error ? error.message : String(error));
        throw error;
      }
    } else {
      await until(() => existsSync(pg), {
        what: 'the embedded template (made by another worker)',
        timeoutMs: 600_000,
        abort: () => (existsSync(failed) ? readFileSync(failed, 'utf8') : undefined),
      });
    }
    return pg;
  })();
  ready.catch(() => {
    ready = undefined;
  });
  return ready;
}

/** Copies the template into `dataDir` (as `dataDir/pg`) unless a database is there already. */
export async function withEmbeddedTemplate(dataDir: string, env: Record<string, string>): Promise<void> {
  const target = path.join(dataDir, 'pg');
  if (existsSync(target)) return;
  cpSync(await embeddedTemplate(env), target, { recursive: true });
}
