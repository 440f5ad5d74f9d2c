/**
 * The SDK's README is code that runs (issue 19):
 * - every ```ts block of packages/client/README.md is type-checked with the repository's TypeScript
 *   against the SDK's sources (`@tally/client` through the `paths` of tsconfig.base.json). Fragments
 *   may use the names declared in GLOBALS below (an app's own functions, a client, a group, …);
 *   a complete example declares everything itself, and its own names shadow those;
 * - a block preceded by `<!-- example: examples/<file> -->` is that file, verbatim, and every file
 *   of packages/client/examples is in the README;
 * - the Node quick start (examples/node-quick-start.mts) is run against a fresh server.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { startTestServer, type TestServer } from '../support/test-server';

const ROOT = path.resolve(__dirname, '../..');
const CLIENT = path.join(ROOT, 'packages/client');
const README = path.join(CLIENT, 'README.md');
const EXAMPLES = path.join(CLIENT, 'examples');

type Block = { line: number; code: string; file: string | undefined };

/** The ```ts blocks of a Markdown text, each with the example file it claims to be, if any. */
function tsBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```ts') continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i] ?? '');
    let previous = start - 1;
    while (previous >= 0 && lines[previous]?.trim() === '') previous--;
    const file = /^<!-- example: (examples\/[\w.-]+) -->$/.exec(lines[previous]?.trim() ?? '')?.[1];
    blocks.push({ line: start + 1, code: `${body.join('\n')}\n`, file });
  }
  return blocks;
}

/** Modules a React Native app has and this repository does not install: their shape, as used. */
const AMBIENT_MODULES = `
declare module '@react-native-async-storage/async-storage' {
  const AsyncStorage: {
    getItem(key: string): Promise<string | null>;
    setItem(key: string, value: string): Promise<void>;
    removeItem(key: string): Promise<void>;
  };
  export default AsyncStorage;
}
declare module '@react-native-community/netinfo' {
  const NetInfo: {
    addEventListener(listener: (state: { isConnected: boolean | null }) => void): () => void;
  };
  export default NetInfo;
}
declare module 'expo-secure-store' {
  export function getItemAsync(key: string): Promise<string | null>;
  export function setItemAsync(key: string, value: string): Promise<void>;
  export function deleteItemAsync(key: string): Promise<void>;
}
`;

/** What the README's fragments may use without declaring it: the app around them. */
const GLOBALS = `
import type {
  Balances, BalancesUpdate, ConnectionState, CurrencyBalances, Expense, ExpenseRequest, FieldError,
  Group, GroupEvent, OutboxEntry, OutboxOutcome, PresenceUpdate, ProblemError, RealtimeClient,
  TallyClient, TokenStore, User,
} from '@tally/client';
declare global {
  const tally: TallyClient;
  const realtime: RealtimeClient;
  const baseUrl: string;
  const tokenStore: TokenStore;
  const group: Group;
  const groupId: string;
  const id: string;
  const me: User;
  const bobId: string;
  const dinner: Expense;
  const body: ExpenseRequest;
  const pending: { key: string };
  const lastSeqSeen: number | undefined;
  const log: { warn(details: object): void };
  const navigation: { navigate(screen: string): void };
  function render(expense: Expense): void;
  function showProblem(entry: OutboxEntry, error: ProblemError): void;
  function showPending(entries: OutboxEntry[]): void;
  function refresh(groupId: string, outcome: OutboxOutcome): void;
  function showFieldErrors(errors: FieldError[]): void;
  function queueForLater(body: ExpenseRequest, key: string | undefined): void;
  function apply(event: GroupEvent): void;
  function showBalances(currencies: CurrencyBalances[] | Balances['currencies']): void;
  function showOnline(online: PresenceUpdate['online']): void;
  function leave(reason: 'removed' | 'not_found'): void;
  function banner(state: ConnectionState): void;
  function signIn(): Promise<void>;
  function update(balances: BalancesUpdate): void;
}
export {};
`;

/**
 * Type-checks groups of blocks, each block as its own module, in one program (building a program of
 * the SDK, its generated types and the libraries is what takes the time); returns each group's
 * diagnostics, located in the README (a diagnostic of no block goes with the first group).
 */
function typeCheck(groups: Block[][]): string[][] {
  const base = ts.readConfigFile(path.join(ROOT, 'tsconfig.base.json'), ts.sys.readFile).config;
  const { options } = ts.convertCompilerOptionsFromJson(base.compilerOptions, ROOT);
  const compilerOptions: ts.CompilerOptions = {
    ...options,
    // As an app would compile them: ES modules with top-level await, web and Node globals.
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    composite: false,
    declaration: false,
    emitDeclarationOnly: false,
    noEmit: true,
    baseUrl: ROOT,
  };
  const virtual = new Map<string, string>([
    [path.join(ROOT, '.readme-check/ambient.d.ts'), AMBIENT_MODULES],
    [path.join(ROOT, '.readme-check/globals.ts'), GLOBALS],
  ]);
  const fileOfBlock = new Map<string, { block: Block; group: number }>();
  for (const [group, blocks] of groups.entries()) {
    for (const [index, block] of blocks.entries()) {
      const name = path.join(ROOT, `.readme-check/block-${group}-${index}.ts`);
      // `export {}` makes a fragment a module: its names are its own, and `await` works at the top.
      virtual.set(name, `${block.code}export {};\n`);
      fileOfBlock.set(name, { block, group });
    }
  }
  const host = ts.createCompilerHost(compilerOptions);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (file) => virtual.get(path.resolve(file)) ?? readFile(file);
  host.fileExists = (file) => virtual.has(path.resolve(file)) || fileExists(file);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language) => {
    const text = virtual.get(path.resolve(file));
    return text === undefined ? getSourceFile(file, language) : ts.createSourceFile(file, text, language);
  };
  const program = ts.createProgram([...virtual.keys()], compilerOptions, host);
  const found: string[][] = groups.map(() => []);
  for (const d of ts.getPreEmitDiagnostics(program)) {
    if (d.file !== undefined && !virtual.has(path.resolve(d.file.fileName))) continue;
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const of = d.file ? fileOfBlock.get(path.resolve(d.file.fileName)) : undefined;
    let text = message;
    if (d.file && d.start !== undefined) {
      const { line } = d.file.getLineAndCharacterOfPosition(d.start);
      const where = of ? `README.md:${of.block.line + 1 + line}` : path.basename(d.file.fileName);
      text = `${where}: ${message}`;
    }
    found[of?.group ?? 0]?.push(text);
  }
  return found;
}

function run(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('packages/client/README.md', () => {
  const markdown = readFileSync(README, 'utf8');
  const blocks = tsBlocks(markdown);

  it('has its examples as files, verbatim, and every example file in it', () => {
    const files = readdirSync(EXAMPLES).filter((f) => /\.m?ts$/.test(f));
    const included = blocks.flatMap((b) => (b.file ? [b.file] : []));
    expect(included.sort()).toEqual(files.map((f) => `examples/${f}`).sort());
    for (const block of blocks) {
      if (block.file)
        expect({ file: block.file, code: block.code }).toEqual({
          file: block.file,
          code: readFileSync(path.join(CLIENT, block.file), 'utf8'),
        });
    }
    expect(included).toEqual(
      expect.arrayContaining([
        'examples/node-quick-start.mts',
        'examples/browser.ts',
        'examples/react-native.ts',
      ]),
    );
  });

  /** Two blocks with a mistake each, checked with the README's in the same program. */
  const broken: Block[] = [
    {
      line: 1,
      code: "import { TallyClient } from '@tally/client';\nconst t = new TallyClient({ baseUrl: 1 });\nvoid t;\nvoid bobIdTypo;\n",
      file: undefined,
    },
    {
      line: 10,
      code: "await tally.expenses.create({ ...body, split: { type: 'shares', between: [{ userId: me.id, amount: 1 }] } });\n",
      file: undefined,
    },
  ];
  let checked: { readme: string[]; broken: string[] } | undefined;
  const check = () => {
    if (!checked) {
      const [readme = [], mistakes = []] = typeCheck([blocks, broken]);
      checked = { readme, broken: mistakes };
    }
    return checked;
  };

  it('has TypeScript blocks that compile against the SDK', () => {
    expect(blocks.length).toBeGreaterThan(10);
    expect(check().readme).toEqual([]);
  });

  it('finds a mistake in a block (the check is not vacuous)', () => {
    expect(check().broken).toEqual([
      expect.stringMatching(/^README\.md:3: .*'number' is not assignable to type 'string'/s),
      expect.stringMatching(/^README\.md:5: Cannot find name 'bobIdTypo'/),
      expect.stringMatching(/^README\.md:11: .*'amount' does not exist in type 'SharesEntry'/s),
    ]);
  });

  it('lists every error class the SDK exports', async () => {
    const sdk = await import('../../packages/client/src');
    const errorClasses = Object.entries(sdk)
      .filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error)
      .map(([name]) => name);
    expect(errorClasses.length).toBeGreaterThan(25);
    const section = markdown.slice(
      markdown.indexOf('## Errors'),
      markdown.indexOf('\n## ', markdown.indexOf('## Errors') + 1),
    );
    expect(errorClasses.filter((name) => !section.includes(`\`${name}\``))).toEqual([]);
  });

  describe('the Node quick start, against a fresh server', () => {
    let t: TestServer;
    let dir: string;
    beforeAll(async () => {
      t = await startTestServer();
      dir = mkdtempSync(path.join(os.tmpdir(), 'tally-quick-start-'));
    });
    afterAll(async () => {
      await t.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('runs: two users, a group, an expense, an outbox write, balances and live events', async () => {
      const { code, stdout, stderr } = await run(
        process.execPath,
        // tsx from this repository (the run is in an empty directory), with the `paths` of the base.
        [
          '--import',
          pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href,
          path.join(EXAMPLES, 'node-quick-start.mts'),
        ],
        { cwd: dir, env: { TALLY_URL: t.url, TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.base.json') } },
      );
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toMatch(/^created exp_\w+$/m);
      expect(stdout).toMatch(/^stored exp_\w+; pending: [01]$/m);
      expect(stdout).toMatch(/^live: #\d+ expense\.created$/m);
      expect(stdout).toMatch(/^live balances: /m);
      // Bob owes half the dinner (60000) and the whole taxi he paid for Ada (-30000): net -30000.
      const inr = stdout.split('\n').find((line) => line.startsWith('INR '));
      expect(inr).toContain('"net":30000');
      expect(inr).toContain('"net":-30000');
      // The outbox file is where the example put it, and empty after the write went out.
      expect(existsSync(path.join(dir, 'tally-outbox.json'))).toBe(true);
    });
  });
});
