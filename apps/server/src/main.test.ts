/**
 * `main.ts` as production runs it: stdout a pipe (not a terminal), `LOG_LEVEL=info`. A log collector
 * parses every stdout line as JSON, so the welcome banner is for a terminal only.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const MAIN = [process.execPath, '--import', 'tsx', 'apps/server/src/main.ts'];
/** util-linux `script` runs a command on a pseudo-terminal: stdout is then a TTY. */
const HAS_SCRIPT = spawnSync('script', ['--version'], { encoding: 'utf8' }).stdout?.includes('util-linux');

/**
 * Starts main.ts on embedded PGlite (stdout piped, or a terminal through `script`), waits until its
 * stdout shows `ready`, sends SIGTERM, and resolves with all of stdout once the process has ended.
 */
async function runUntil(
  ready: string,
  options: { env?: Record<string, string>; terminal?: boolean } = {},
): Promise<{ stdout: string; code: number | null }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-main-'));
  const [command, ...args] = options.terminal ? ['script', '-qfec', MAIN.join(' '), '/dev/null'] : MAIN;
  const child = spawn(command as string, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // 'close', not 'exit': the last lines may still be in the pipe when the process exits.
  const ended = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${ready} in 45 s:\n${stdout}${stderr}`)), 45_000);
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes(ready)) {
          clearTimeout(timer);
          resolve();
        }
      });
      void ended.then((code) => reject(new Error(`ended (${code}) during start-up:\n${stdout}${stderr}`)));
    });
    // A moment for anything written right after start-up, then the drain's own lines.
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGTERM');
    const code = await ended;
    return { stdout, code };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('main.ts', () => {
  it('writes only JSON lines to a non-terminal stdout at LOG_LEVEL=info (no banner), and drains on SIGTERM', async () => {
    const { stdout, code } = await runUntil('"msg":"listening"', {
      env: { NODE_ENV: 'production', JWT_SECRET: 'a-secret-of-at-least-thirty-two-characters' },
    });
    const lines = stdout.split('\n').filter((line) => line !== '');
    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== 'object';
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
    expect(lines.map((line) => (JSON.parse(line) as { msg?: string }).msg)).toEqual(
      expect.arrayContaining(['listening', 'draining']),
    );
    expect(code).toBe(0);
  }, 60_000);

  (HAS_SCRIPT ? it : it.skip)(
    'greets a terminal with the banner: the URL and a first request to try',
    async () => {
      const { stdout } = await runUntil('/docs', { terminal: true });
      expect(stdout).toMatch(/Tally is listening on http:\/\/localhost:\d+ \(ROLE=all\)/);
      expect(stdout).toMatch(/Try: curl -s -X POST http:\/\/localhost:\d+\/v1\/auth\/register/);
    },
    60_000,
  );
});
