/**
 * k8s/monitoring against the real processes: every metric the dashboard's panels, annotations and
 * variables and the alerts use is exported by a real Tally process (one `ROLE=api` and one
 * `ROLE=gateway` process are started and their /metrics read), so a renamed or removed metric fails
 * here instead of leaving an empty panel or a silent alert. The other way round too: every Tally
 * metric (not the Node/process defaults) has a panel.
 */
import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, redisUrl, type TestDatabase } from '../support/test-database';
import {
  alertRules,
  dashboardExpressions,
  exportedNames,
  isDefaultMetric,
  metricNames,
  PROMETHEUS_SERIES,
  REQUIRED_ON_DASHBOARD,
} from './monitoring-fixture';

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
