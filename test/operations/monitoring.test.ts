/**
 * k8s/monitoring: the Prometheus alert rules and the Grafana dashboard (monitoring-fixture.ts reads them).
 *
 * - `promtool check rules` and `promtool test rules` (Debian's `prometheus` package; .ci/run installs it):
 *   alerts.test.yaml shows every alert firing on synthetic series and quiet on a healthy fleet.
 * - The dashboard's PromQL parses (promtool, on the expressions with Grafana's variables filled in).
 * - Every alert's runbook points at sections that exist: it names them as `<file>#<anchor>`
 *   (`docs/OPERATIONS.md#database-limits`), at least one in docs/ or ARCHITECTURE.md, and each file
 *   exists and each anchor is GitHub's anchor of one of that file's headings.
 *
 * Against the metrics of real processes: monitoring-metrics.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  alertRules,
  allPanels,
  DATASOURCE_VARIABLE,
  dashboard,
  dashboardExpressions,
  findPromtool,
  githubSlug,
  headingAnchors,
  metricNames,
  promtool,
  queryPanels,
  ROOT,
  runbookProblems,
  unitTests,
  withVariablesFilled,
} from './monitoring-fixture';

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
