/**
 * The Dockerfile, read as text (it cannot be built on the development machine: no Docker engine):
 * its stages, base image, dependencies, user, entry point, build and .dockerignore.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../apps/server/src/config';
import { PRODUCTION_RUN } from '../../infra/image/podman';
import {
  BUNDLES,
  dockerInstructions,
  dockerStages,
  dockerWorkdir,
  ROOT,
  type Stage,
  scriptArgv,
} from './repository-files';

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
    // The type check runs unless the build is told (TYPECHECK=0) that its caller just ran it.
    const typeCheck = /^RUN if \[ "\$TYPECHECK" != 0 \]; then npx tsc -b apps\/server; fi$/;
    expect(at(/^ARG TYPECHECK=1$/)).toBeGreaterThan(-1);
    expect(at(/^RUN npm run build$/)).toBeGreaterThan(at(typeCheck));
    expect(at(typeCheck)).toBeGreaterThan(at(/^COPY packages /));
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
