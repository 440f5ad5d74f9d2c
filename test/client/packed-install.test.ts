/**
 * `@tally/client` installs like any npm package (issue 19), checked the way a user gets it: `npm pack`
 * (whose `prepack` builds dist/), then `npm install <tarball>` in a scratch project under os.tmpdir(),
 * outside the workspace, where nothing of the monorepo (paths, jest's mapper, tsx) can help. There:
 * an ES module `import`s it and a CommonJS module `require`s it on this Node, and both register and
 * create a group on a real Tally; tsc type-checks a consumer (nodenext, verbatimModuleSyntax, strict,
 * skipLibCheck false) with the pinned TypeScript and with TypeScript 7; esbuild bundles the installed
 * package for browsers; and a React-Native-like app keeps a write in an AsyncStorage outbox across a
 * restart of the client.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../support/test-server';
import {
  bundlePackedSdkForBrowser,
  installPackedSdk,
  PACKAGE_DIR,
  type PackedSdk,
} from './packed/packed-sdk';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};
/** The TypeScript the package pins (exact), which is also the workspace's. */
const PINNED_TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

describe('the packed @tally/client, installed outside the monorepo', () => {
  let sdk: PackedSdk;
  let t: TestServer;

  beforeAll(async () => {
    [sdk, t] = await Promise.all([installPackedSdk(['typescript@7', 'ws@8']), startTestServer()]);
  }, 120_000);

  afterAll(async () => {
    sdk?.cleanup();
    await t?.stop();
  });

  /** Runs a file of the scratch project with this Node; its last line of output, as JSON. */
  const node = async (file: string) => {
    const { stdout } = await run(process.execPath, [file], {
      cwd: sdk.dir,
      env: { ...process.env, TALLY_URL: t.url, NODE_OPTIONS: '' },
      timeout: 30_000,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, unknown>;
  };
  const installed = (file: string) => path.join(sdk.dir, 'node_modules/@tally/client', file);

  it("runs the README's Node quick start unchanged, with this Node, from the installed package", async () => {
    // The file the README includes verbatim (packages/client/examples/), copied into the scratch
    // project as a user would paste it: Node 24 runs TypeScript by stripping its types.
    copyFileSync(
      path.join(PACKAGE_DIR, 'examples/node-quick-start.mts'),
      path.join(sdk.dir, 'quick-start.mts'),
    );
    const { stdout } = await run(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', 'quick-start.mts'],
      {
        cwd: sdk.dir,
        env: { ...process.env, TALLY_URL: t.url, NODE_OPTIONS: '' },
        timeout: 60_000,
      },
    );
    expect(stdout).toMatch(/^created exp_\w+$/m);
    expect(stdout).toMatch(/^stored exp_\w+; pending: [01]$/m);
    expect(stdout).toMatch(/^live balances: /m);
    const inr = stdout.split('\n').find((line) => line.startsWith('INR '));
    expect(inr).toContain('"net":-30000');
    expect(existsSync(path.join(sdk.dir, 'tally-outbox.json'))).toBe(true);
  });

  it('ships the ESM and CommonJS builds with their declarations, and nothing that needs the monorepo', () => {
    expect(sdk.files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'dist/esm/index.js',
        'dist/esm/index.d.ts',
        'dist/cjs/index.js',
        'dist/cjs/index.d.ts',
        'dist/cjs/package.json',
      ]),
    );
    expect(sdk.files.filter((f) => !/^(dist\/(esm|cjs)\/|package\.json$|README\.md$)/.test(f))).toEqual([]);
    expect(sdk.files.filter((f) => /\.test\.|(^|\/)src\//.test(f))).toEqual([]);
    expect(JSON.parse(readFileSync(installed('dist/cjs/package.json'), 'utf8'))).toEqual({
      type: 'commonjs',
    });
  });

  it.each([
    ['an ES module (import)', 'consumer.mjs', 'dist/esm/index.js'],
    ['a CommonJS module (require)', 'consumer.cjs', 'dist/cjs/index.js'],
  ])('loads in %s on Node and registers and creates a group on a real Tally', async (_, file, build) => {
    const result = await node(file);
    const resolved = String(result.resolved).replace(/^file:\/\//, '');
    expect(resolved).toBe(installed(build));
    expect(result).toMatchObject({
      userId: expect.stringMatching(/^usr_/),
      tokenStored: true,
      groupId: expect.stringMatching(/^grp_/),
      groupName: expect.stringMatching(/^Packed /),
      idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
      etag: '"v1"',
      missing: { tallyError: true, notFound: true, status: 404 },
    });
  });

  it.each([
    ['the pinned TypeScript', () => PINNED_TSC, manifest.devDependencies.typescript],
    ['TypeScript 7', () => path.join(sdk.dir, 'node_modules/typescript/bin/tsc'), '7.'],
  ])(
    'type-checks a consumer with %s (nodenext, verbatimModuleSyntax, strict, skipLibCheck false)',
    async (_, tsc, version) => {
      const { stdout } = await run(process.execPath, [tsc(), '--version'], { cwd: sdk.dir });
      expect(stdout.trim()).toMatch(new RegExp(`^Version ${version!.replace(/\./g, '\\.')}`));
      // The consumer's @ts-expect-error lines fail the check if the types were `any` or missing.
      const check = await run(process.execPath, [tsc(), '-p', 'tsconfig.json', '--listFilesOnly'], {
        cwd: sdk.dir,
      });
      const files = check.stdout.split('\n').map((f) => path.normalize(f.trim()));
      expect(files).toEqual(
        expect.arrayContaining([installed('dist/esm/index.d.ts'), installed('dist/cjs/index.d.ts')]),
      );
      expect(files.filter((f) => f.includes(`${path.sep}packages${path.sep}client${path.sep}`))).toEqual([]);
      const errors = await run(process.execPath, [tsc(), '-p', 'tsconfig.json'], { cwd: sdk.dir }).then(
        ({ stdout }) => stdout,
        (error: { stdout?: string; message: string }) => error.stdout || error.message,
      );
      expect(errors).toBe('');
    },
  );

  it('bundles for browsers with esbuild from the installed package (ES modules, nothing of Node)', async () => {
    const { text, inputs } = await bundlePackedSdkForBrowser(sdk.dir);
    expect(inputs).toContain('node_modules/@tally/client/dist/esm/index.js');
    expect(inputs.filter((f) => !f.startsWith('node_modules/') && f !== '<stdin>')).toEqual([]);
    expect(inputs.filter((f) => f.includes('/dist/cjs/'))).toEqual([]);
    expect(text).toContain('export {');
    // No require left for a browser (esbuild's `__require("…")` shim), no Node module imported.
    expect(text).not.toMatch(/__require\(["']|from ["']node:/);
  });

  it('keeps a write in an AsyncStorage outbox (React Native) across a restart of the client, then sends it', async () => {
    const result = await node('rn-outbox.cjs');
    expect(String(result.resolved)).toBe(installed('dist/cjs/index.js'));
    const entry = result.entry as { id: string; idempotencyKey: string; type: string };
    expect(entry.type).toBe('expense.create');
    expect(result).toMatchObject({
      storedMentionsIt: true,
      found: [entry],
      pendingAfter: 0,
      expense: { id: expect.stringMatching(/^exp_/), description: 'Dinner', amount: 1200 },
    });
  });
});
