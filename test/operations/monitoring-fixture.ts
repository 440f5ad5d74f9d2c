/**
 * What the k8s/monitoring tests share: promtool, the alert rules and their unit tests, the
 * dashboard's panels and PromQL, the metric names in an expression, runbook pointers checked against
 * the headings of the documents they name, and the metric names a /metrics page exports.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

export const ROOT = path.resolve(__dirname, '../..');
export const MONITORING = path.join(ROOT, 'k8s/monitoring');
export const ALERTS = path.join(MONITORING, 'alerts.yaml');
export const ALERT_TESTS = path.join(MONITORING, 'alerts.test.yaml');
export const DASHBOARD = path.join(MONITORING, 'grafana-dashboard.json');

/** How the dashboard refers to its datasource: Grafana's variable, not a JavaScript template. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax
export const DATASOURCE_VARIABLE = '${datasource}';

/** Series Prometheus makes itself rather than scraping them from the processes. */
export const PROMETHEUS_SERIES = new Set(['up', 'ALERTS']);

/** The metrics issue 11 asks the dashboard to show (request rate and latency by route, idempotency, ...). */
export const REQUIRED_ON_DASHBOARD = [
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

export function findPromtool(): string {
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

export function promtool(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync(findPromtool(), args, { cwd: MONITORING, encoding: 'utf8' });
  if (run.error) throw run.error;
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

// ---- PromQL --------------------------------------------------------------------------------------

export const PROMQL_KEYWORDS = new Set([
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
export function metricNames(expr: string): string[] {
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
export const withVariablesFilled = (expr: string) =>
  expr
    .replace(/\$__rate_interval|\$\{__rate_interval\}|\$__interval|\$\{__interval\}/g, '5m')
    .replace(/\$__range|\$\{__range\}/g, '1h')
    .replace(/\$\{\w+\}|\$\w+/g, '.*');

// ---- The dashboard -------------------------------------------------------------------------------

export type Target = { expr?: string; refId?: string; datasource?: { type?: string; uid?: string } };
export type Panel = {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: { type?: string; uid?: string };
  targets?: Target[];
  panels?: Panel[];
};
export type Variable = { name: string; type: string; query?: string | { query?: string } };
export type Dashboard = {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: Variable[] };
  annotations: { list: { expr?: string; datasource?: { uid?: string } }[] };
};

export const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
export const allPanels = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
export const queryPanels = allPanels.filter((p) => p.type !== 'row' && p.type !== 'text');

/** Every PromQL expression of the dashboard, named for messages. */
export function dashboardExpressions(): { where: string; expr: string }[] {
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

export type AlertRule = {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
};
export const ruleGroups = (
  parse(readFileSync(ALERTS, 'utf8')) as { groups: { name: string; rules: AlertRule[] }[] }
).groups;
export const alertRules = ruleGroups.flatMap((g) => g.rules);

export type AlertTest = {
  eval_time: string;
  alertname: string;
  exp_alerts?: { exp_annotations?: Record<string, string> }[];
};
export const unitTests = (
  parse(readFileSync(ALERT_TESTS, 'utf8')) as { tests: { name?: string; alert_rule_test?: AlertTest[] }[] }
).tests;

// ---- Runbooks: pointers into the docs ----------------------------------------------------------

/**
 * GitHub's anchor for a heading (github-slugger, on the rendered text): lower case, every character
 * other than a letter, a digit, `-`, `_` or a space dropped, spaces made `-`.
 */
export function githubSlug(heading: string): string {
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
export function headingAnchors(file: string): string[] {
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
export function docReferences(runbook: string): { file: string; anchor?: string }[] {
  return [...runbook.matchAll(/(?<![\w./-])((?:[\w.-]+\/)*[\w.-]+\.md)(?:#([\p{L}\p{N}_-]+))?/gu)].map((m) =>
    m[2] === undefined ? { file: m[1] as string } : { file: m[1] as string, anchor: m[2] },
  );
}

/** What is wrong with one runbook's pointers: nothing, when every one names a heading that exists. */
export function runbookProblems(runbook: string): string[] {
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
export function exportedNames(text: string): {
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

export const isDefaultMetric = (name: string) => name.startsWith('process_') || name.startsWith('nodejs_');
