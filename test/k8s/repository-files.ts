/**
 * What the k8s tests read of the repository itself: its root, the scripts of its package.json, the
 * bundles `npm run build` writes, and the Dockerfile as text (it cannot be built on the development
 * machine: no Docker engine). Reading these starts nothing and copies nothing.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

export const ROOT_SCRIPTS = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;
export const scriptArgv = (name: string) => (ROOT_SCRIPTS[name] ?? '').split(/\s+/).filter(Boolean);

/** What `npm run build` writes: `dist/<name>.js` for each `<name>=<entry point>` of its esbuild command. */
export const BUNDLES = Object.fromEntries(
  scriptArgv('build')
    .filter((arg) => /^\w+=[^-]/.test(arg))
    .map((arg) => arg.split('=') as [string, string])
    .map(([name, entry]) => [`dist/${name}.js`, entry]),
);

export type Instruction = { op: string; args: string };
export type Stage = { name: string | undefined; image: string; instructions: Instruction[] };

export function dockerInstructions(): Instruction[] {
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

export function dockerStages(): Stage[] {
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

export function dockerWorkdir(): string {
  const last = dockerStages().at(-1);
  return last?.instructions.filter((i) => i.op === 'WORKDIR').at(-1)?.args ?? '/';
}
