/**
 * k8s/monitoring: the Prometheus alert rules and the Grafana dashboard, checked against the real processes.
 *
 * - `promtool check rules` and `promtool test rules` (Debian's `prometheus` package; .ci/run installs it):
 *   alerts.test.yaml shows every alert firing on synthetic series and quiet on a healthy fleet.
 * - Every metric the dashboard's panels, annotations and variables and the alerts use is exported by a
 *   real Tally process: one `ROLE=api` and one `ROLE=gateway` process are started and their /metrics
 *   read, so a renamed or removed metric fails here instead of leaving an empty panel or a silent alert.
 *   The other way round too: every Tally metric (not the Node/process defaults) has a panel.
 * - The dashboard's PromQL parses (promtool, on the expressions with Grafana's variables filled in).
 * - Every alert's runbook points at sections that exist: it names them as `<file>#<anchor>`
 *   (`docs/OPERATIONS.md#database-limits`), at least one in docs/ or ARCHITECTURE.md, and each file
 *   exists and each anchor is GitHub's anchor of one of that file's headings.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, redisUrl, type TestDatabase } from '../support/test-database';

const ROOT = path.resolve(__dirname, '../..');
const MONITORING = path.join(ROOT, 'k8s/monitoring');
const ALERTS = path.join(MONITORING, 'alerts.yaml');
const ALERT_TESTS = path.join(MONITORING, 'alerts.test.yaml');
const DASHBOARD = path.join(MONITORING, 'grafana-dashboard.json');

/** How the dashboard refers to its datasource: Grafana's variable, not a JavaScript template. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax
const DATASOURCE_VARIABLE = '${datasource}';

/** Series Prometheus makes itself rather than scraping them from the processes. */
const PROMETHEUS_SERIES = new Set(['up', 'ALERTS']);

/** The metrics issue 11 asks the dashboard to show (request rate and latency by route, idempotency, ...). */
const REQUIRED_ON_DASHBOARD = [
  'http_request_duration_seconds_count',
  'http_request_duration_seconds_bucket',
  'idempotency_outcomes_total',
  'ws_connections',
  'ws_fanout_lag_seconds_bucket',
  'outbox_backlog',
  'rate_limit_rejections_total',
  'load_shed_total',
  'group_writes_refused_total',
  'tally_dependency_up',
];

function findPromtool(): string {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/bin'];
  for (const dir of dirs) {
    const candidate = path.join(dir, 'promtool');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new Error(
    'promtool not found (PATH, /usr/bin): install Debian\'s "prometheus" package (apt-get install prometheus), ' +
      'which .ci/run does when run as root. The alert rules cannot be checked without it.',
  );
}

function promtool(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync(findPromtool(), args, { cwd: MONITORING, encoding: 'utf8' });
  if (run.error) throw run.error;
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

// ---- PromQL --------------------------------------------------------------------------------------

const PROMQL_KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/**
 * The metric names an expression selects: identifiers left once strings, label matchers, ranges,
 * label lists and Grafana variables are removed, other than functions, aggregations and keywords.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, ' ')
    .replace(/\$\{\w+\}|\$\w+/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/(?<![\w.:])[A-Za-z_:][\w:]*(?!\w)(?!\s*\()/g)) {
    if (!PROMQL_KEYWORDS.has(match[0].toLowerCase())) names.add(match[0]);
  }
  return [...names];
}

/** Grafana's variables replaced by values Prometheus accepts, so that promtool can parse the expression. */
const withVariablesFilled = (expr: string) =>
  expr
    .replace(/\$__rate_interval|\$\{__rate_interval\}|\$__interval|\$\{__interval\}/g, '5m')
    .replace(/\$__range|\$\{__range\}/g, '1h')
    .replace(/\$\{\w+\}|\$\w+/g, '.*');

// ---- The dashboard -------------------------------------------------------------------------------

type Target = { expr?: string; refId?: string; datasource?: { type?: string; uid?: string } };
type Panel = {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: { type?: string; uid?: string };
  targets?: Target[];
  panels?: Panel[];
};
type Variable = { name: string; type: string; query?: string | { query?: string } };
type Dashboard = {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: Variable[] };
  annotations: { list: { expr?: string; datasource?: { uid?: string } }[] };
};

const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
const allPanels = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
const queryPanels = allPanels.filter((p) => p.type !== 'row' && p.type !== 'text');

/** Every PromQL expression of the dashboard, named for messages. */
function dashboardExpressions(): { where: string; expr: string }[] {
  const exprs: { where: string; expr: string }[] = [];
  for (const panel of queryPanels) {
    for (const target of panel.targets ?? []) {
      if (target.expr) exprs.push({ where: `panel "${panel.title}" ${target.refId}`, expr: target.expr });
    }
  }
  for (const annotation of dashboard.annotations.list) {
    if (annotation.expr) exprs.push({ where: 'annotation', expr: annotation.expr });
  }
  for (const variable of dashboard.templating.list) {
    if (variable.type !== 'query') continue;
    const query = typeof variable.query === 'string' ? variable.query : (variable.query?.query ?? '');
    // label_values(selector, label) → selector; query_result(expr) → expr.
    const inner = /^\s*(?:label_values\((.+),\s*\w+\s*\)|query_result\((.+)\))\s*$/s.exec(query);
    if (!inner) throw new Error(`variable ${variable.name}: unexpected query ${query}`);
    exprs.push({ where: `variable $${variable.name}`, expr: (inner[1] ?? inner[2]) as string });
  }
  return exprs;
}

// ---- The alert rules -----------------------------------------------------------------------------

type AlertRule = {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
};
const ruleGroups = (parse(readFileSync(ALERTS, 'utf8')) as { groups: { name: string; rules: AlertRule[] }[] })
  .groups;
const alertRules = ruleGroups.flatMap((g) => g.rules);

type AlertTest = {
  eval_time: string;
  alertname: string;
  exp_alerts?: { exp_annotations?: Record<string, string> }[];
};
const unitTests = (
  parse(readFileSync(ALERT_TESTS, 'utf8')) as { tests: { name?: string; alert_rule_test?: AlertTest[] }[] }
).tests;

// ---- Runbooks: pointers into the docs ----------------------------------------------------------

/**
 * GitHub's anchor for a heading (github-slugger, on the rendered text): lower case, every character
 * other than a letter, a digit, `-`, `_` or a space dropped, spaces made `-`.
 */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]*>/g, '') // inline HTML
    .replace(/[`*]/g, ''); // code spans and emphasis
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors GitHub gives a Markdown file's ATX headings (outside fenced code), repeats suffixed -1, -2, ... */
function headingAnchors(file: string): string[] {
  const anchors: string[] = [];
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === undefined ? marker : undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (!heading) continue;
    const slug = githubSlug(heading[1] as string);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.push(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** The `<file>#<anchor>` pointers of a runbook, files relative to the repository root. */
function docReferences(runbook: string): { file: string; anchor?: string }[] {
  return [...runbook.matchAll(/(?<![\w./-])((?:[\w.-]+\/)*[\w.-]+\.md)(?:#([\p{L}\p{N}_-]+))?/gu)].map((m) =>
    m[2] === undefined ? { file: m[1] as string } : { file: m[1] as string, anchor: m[2] },
  );
}

/** What is wrong with one runbook's pointers: nothing, when every one names a heading that exists. */
function runbookProblems(runbook: string): string[] {
  const refs = docReferences(runbook);
  const problems: string[] = [];
  if (!refs.some((r) => r.file.startsWith('docs/') || r.file === 'ARCHITECTURE.md'))
    problems.push('names no file under docs/ nor ARCHITECTURE.md');
  // A section named in prose after the file (`Doc.md, Section`, `Doc.md > Section`) cannot be checked.
  if (/\.md\s*[,>"“]/.test(runbook)) problems.push('names a section in prose: write it as <file>#<anchor>');
  for (const { file, anchor } of refs) {
    const absolute = path.join(ROOT, file);
    if (!existsSync(absolute)) problems.push(`${file}: no such file`);
    else if (anchor === undefined) problems.push(`${file}: no #anchor naming its section`);
    else if (!headingAnchors(absolute).includes(anchor)) problems.push(`${file}#${anchor}: no such heading`);
  }
  return problems;
}

// ---- The processes' metrics ----------------------------------------------------------------------

/** Metric names in Prometheus text: each family's samples (a histogram's _bucket, _sum, _count). */
function exportedNames(text: string): {
  names: Set<string>;
  families: Map<string, string>;
  help: Map<string, string>;
} {
  const names = new Set<string>();
  const families = new Map<string, string>();
  const help = new Map<string, string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      const [, name, kind] = type as unknown as [string, string, string];
      families.set(name, kind);
      if (kind === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(`${name}${s}`);
      else if (kind === 'summary') for (const s of ['', '_sum', '_count']) names.add(`${name}${s}`);
      else names.add(name);
      continue;
    }
    const helpLine = /^# HELP (\S+) (.*)$/.exec(line);
    if (helpLine) help.set(helpLine[1] as string, helpLine[2] as string);
    else if (line && !line.startsWith('#')) names.add(/^[A-Za-z_:][\w:]*/.exec(line)?.[0] ?? '');
  }
  names.delete('');
  return { names, families, help };
}

const isDefaultMetric = (name: string) => name.startsWith('process_') || name.startsWith('nodejs_');

describe('k8s/monitoring alert rules (promtool)', () => {
  it('pass `promtool check rules`', () => {
    const { status, output } = promtool('check', 'rules', 'alerts.yaml');
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
    expect(output).toContain(`${alertRules.length} rules found`);
  });

  it('pass their unit tests: `promtool test rules alerts.test.yaml`', () => {
    const { status, output } = promtool('test', 'rules', 'alerts.test.yaml');
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('each alert has a test where it fires and one where it stays quiet', () => {
    const cases = unitTests.flatMap((t) => t.alert_rule_test ?? []);
    const coverage = alertRules.map(({ alert }) => ({
      alert,
      fires: cases.some((c) => c.alertname === alert && (c.exp_alerts ?? []).length > 0),
      quiet: cases.some((c) => c.alertname === alert && (c.exp_alerts ?? []).length === 0),
    }));
    expect(coverage).toEqual(alertRules.map(({ alert }) => ({ alert, fires: true, quiet: true })));
    // The healthy fleet checks every alert.
    const healthy = unitTests[0]?.alert_rule_test ?? [];
    expect(healthy.filter((c) => (c.exp_alerts ?? []).length === 0).map((c) => c.alertname)).toEqual(
      alertRules.map((r) => r.alert),
    );
  });

  it('each alert has a for, a severity, a summary, a description and a runbook', () => {
    expect(new Set(alertRules.map((r) => r.alert)).size).toBe(alertRules.length);
    for (const rule of alertRules) {
      expect({
        alert: rule.alert,
        for: rule.for,
        severity: rule.labels?.severity,
        annotations: Object.keys(rule.annotations ?? {}).sort(),
      }).toEqual({
        alert: rule.alert,
        for: expect.stringMatching(/^\d+[smh]$/),
        severity: expect.stringMatching(/^(critical|warning|info)$/),
        annotations: ['description', 'runbook', 'summary'],
      });
    }
  });

  it('each runbook points at headings that exist: `<file>#<anchor>`, one at least in docs/ or ARCHITECTURE.md', () => {
    const problems = alertRules.flatMap(({ alert, annotations }) =>
      runbookProblems(annotations?.runbook ?? '').map((problem) => `${alert}: ${problem}`),
    );
    expect(problems).toEqual([]);
  });

  it('the unit tests expect the runbooks of alerts.yaml, word for word', () => {
    const runbookOf = new Map(alertRules.map((r) => [r.alert, r.annotations?.runbook]));
    const expected = unitTests
      .flatMap((t) => t.alert_rule_test ?? [])
      .flatMap((c) =>
        (c.exp_alerts ?? []).map((a) => ({ alert: c.alertname, runbook: a.exp_annotations?.runbook })),
      );
    expect(expected.length).toBeGreaterThan(0);
    expect(expected).toEqual(expected.map(({ alert }) => ({ alert, runbook: runbookOf.get(alert) })));
  });

  it('checks runbook pointers the way GitHub anchors headings', () => {
    expect(githubSlug('Feeds: catch-up, ordering, gap repair')).toBe('feeds-catch-up-ordering-gap-repair');
    expect(githubSlug('10. Configuration (environment variables)')).toBe(
      '10-configuration-environment-variables',
    );
    expect(githubSlug('`ROLE` and **[Redis](https://redis.io)** 7+')).toBe('role-and-redis-7');
    expect(headingAnchors(path.join(ROOT, 'docs/OPERATIONS.md'))).toEqual(
      expect.arrayContaining([
        'operating-tally',
        'database-limits',
        'shutdown-drain',
        'browsers-cors-and-the-web-client',
      ]),
    );
    // k8s/README.md has `# 1. Jobs are immutable…` inside a shell block: not a heading.
    expect(headingAnchors(path.join(ROOT, 'k8s/README.md')).filter((a) => /^\d/.test(a))).toEqual([]);
    expect(runbookProblems('docs/OPERATIONS.md#database-limits; k8s/README.md#deploy.')).toEqual([]);
    expect(runbookProblems('README.md, Operations > Database limits.')).toEqual([
      'names no file under docs/ nor ARCHITECTURE.md',
      'names a section in prose: write it as <file>#<anchor>',
      'README.md: no #anchor naming its section',
    ]);
    expect(runbookProblems('docs/OPERATIONS.md#load-shedding and docs/NOPE.md#x; ARCHITECTURE.md')).toEqual([
      'docs/OPERATIONS.md#load-shedding: no such heading',
      'docs/NOPE.md: no such file',
      'ARCHITECTURE.md: no #anchor naming its section',
    ]);
  });
});

describe('k8s/monitoring Grafana dashboard', () => {
  it('is a dashboard with a Prometheus datasource variable that every panel and query uses', () => {
    expect(dashboard.uid).toBe('tally-overview');
    expect(dashboard.templating.list[0]).toMatchObject({
      name: 'datasource',
      type: 'datasource',
      query: 'prometheus',
    });
    const ids = allPanels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of allPanels) {
      expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
    }
    expect(queryPanels.length).toBeGreaterThan(0);
    for (const panel of queryPanels) {
      expect({ title: panel.title, datasource: panel.datasource?.uid }).toEqual({
        title: panel.title,
        datasource: DATASOURCE_VARIABLE,
      });
      expect(panel.targets?.length ?? 0).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) {
        expect({ title: panel.title, uid: target.datasource?.uid, expr: typeof target.expr }).toEqual({
          title: panel.title,
          uid: DATASOURCE_VARIABLE,
          expr: 'string',
        });
      }
    }
  });

  it('has PromQL that Prometheus parses (promtool, on the expressions with the variables filled in)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tally-dashboard-promql-'));
    try {
      const rules = dashboardExpressions().map(({ expr }, i) => ({
        record: `tally_dashboard:expression_${i}`,
        expr: withVariablesFilled(expr),
      }));
      writeFileSync(
        path.join(dir, 'dashboard.rules.json'),
        JSON.stringify({ groups: [{ name: 'dashboard', rules }] }),
      );
      const run = spawnSync(findPromtool(), ['check', 'rules', path.join(dir, 'dashboard.rules.json')], {
        encoding: 'utf8',
      });
      expect({ status: run.status, output: `${run.stdout}${run.stderr}` }).toEqual({
        status: 0,
        output: expect.stringContaining(`SUCCESS: ${rules.length} rules found`),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds the metric names in PromQL (the extraction the next test relies on)', () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (route, le) (rate(http_request_duration_seconds_bucket{job=~"$job", route!~"/healthz|x"}[$__rate_interval])))',
      ),
    ).toEqual(['http_request_duration_seconds_bucket']);
    expect(
      metricNames(
        'sum by (a, outcome) (rate(x_total{o="in(side)"}[10m])) / ignoring (outcome) group_left sum without (b) (y:z) > 0.05 and on (a) absent(up{job="t"}) or vector(1e3) offset 5m',
      ).sort(),
    ).toEqual(['up', 'x_total', 'y:z']);
  });
});

describe('every metric the dashboard and the alerts use is exported by a real Tally process', () => {
  let db: TestDatabase;
  const processes: ServerProcess[] = [];
  let exported: ReturnType<typeof exportedNames>;

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, REDIS_URL: redisUrl() };
    processes.push(
      ...(await Promise.all([
        spawnServer({ ...env, ROLE: 'api' }),
        spawnServer({ ...env, ROLE: 'gateway' }),
      ])),
    );
    const texts: string[] = [];
    for (const proc of processes) {
      // A readiness check first, as the kubelet's probes do, so that every dependency's gauge has a sample.
      expect((await fetch(`${proc.url}/readyz`)).status).toBe(200);
      const res = await fetch(`${proc.url}/metrics`);
      expect(res.status).toBe(200);
      texts.push(await res.text());
    }
    exported = exportedNames(texts.join('\n'));
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    await db?.drop();
  });

  it('the dashboard: every panel, annotation and variable', () => {
    const missing = dashboardExpressions().flatMap(({ where, expr }) => {
      const names = metricNames(expr);
      if (names.length === 0) return [`${where}: no metric found in ${expr}`];
      return names
        .filter((n) => !exported.names.has(n) && !PROMETHEUS_SERIES.has(n))
        .map((n) => `${where}: ${n}`);
    });
    expect(missing).toEqual([]);
  });

  it('the alert rules', () => {
    const missing = alertRules.flatMap(({ alert, expr }) => {
      const names = metricNames(expr);
      if (names.length === 0) return [`${alert}: no metric found in ${expr}`];
      return names
        .filter((n) => !exported.names.has(n) && !PROMETHEUS_SERIES.has(n))
        .map((n) => `${alert}: ${n}`);
    });
    expect(missing).toEqual([]);
  });

  it('and the dashboard shows every Tally metric (the Node and process defaults aside)', () => {
    const used = new Set(dashboardExpressions().flatMap(({ expr }) => metricNames(expr)));
    for (const name of REQUIRED_ON_DASHBOARD)
      expect({ name, used: used.has(name) }).toEqual({ name, used: true });
    const familyUsed = (family: string, kind: string) =>
      kind === 'histogram' ? used.has(`${family}_bucket`) || used.has(`${family}_count`) : used.has(family);
    const unshown = [...exported.families]
      .filter(([family, kind]) => !isDefaultMetric(family) && !familyUsed(family, kind))
      .map(([family]) => family);
    expect(unshown).toEqual([]);
  });

  it('with idempotency outcomes the process names in its help text', () => {
    const help = exported.help.get('idempotency_outcomes_total') ?? '';
    const named = new Set(/by outcome: (.*)$/.exec(help)?.[1]?.split(/,\s*/) ?? []);
    expect(named.size).toBeGreaterThan(5);
    const exprs = [...dashboardExpressions().map((e) => e.expr), ...alertRules.map((r) => r.expr)];
    const usedOutcomes = exprs.flatMap((expr) =>
      [...expr.matchAll(/outcome=~?"([^"]*)"/g)].flatMap((m) => (m[1] as string).split('|')),
    );
    expect(usedOutcomes.length).toBeGreaterThan(0);
    expect(usedOutcomes.filter((o) => !named.has(o))).toEqual([]);
  });
});
