// Statistics (API.md §14.2) as hand-written SVG bar charts: a group's spending per category, per
// month and per member over a range, in the group's currency where rates exist (the API converts);
// and my own share across my groups. A statistics read costs the group's ledger in the range, so the
// screen reads again after a change only while it is shown, and at most once per second.
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { categoryLabel, useCategories } from './categories.js';
import { BarChart } from './chart.js';
import { t } from './messages.js';
import { formatMoney } from './money.js';
import { attempt, cached, describe, realtime, say, tally } from './session.js';
import { namesOf } from './ui.js';

const BREAKDOWNS = ['category', 'month', 'member'];
/** Events that change what the statistics count. */
const COUNTED = /^(expense|category)\./;
const SETTLE_MS = 1000;

/** The charts of one answer: one in the converted currency when there is one, else one per currency. */
function chartsOf(stats) {
  if (stats.currencies.length === 0) return [];
  if (stats.converted) {
    return [
      { currency: stats.converted.currency, buckets: stats.converted.buckets, total: stats.converted.total },
    ];
  }
  return stats.currencies;
}

/** A date input's `YYYY-MM-DD` as the start of that local day (or undefined when empty). */
const startOf = (day) => (day ? new Date(`${day}T00:00:00`).toISOString() : undefined);

export function StatsScreen({ groupId }) {
  const [group, setGroup] = useState();
  const [categories] = useCategories(groupId);
  const [range, setRange] = useState({ from: '', to: '' });
  const [stats, setStats] = useState();
  const rangeRef = useRef(range);

  const read = async (currency) => {
    const { from, to } = rangeRef.current;
    // `to` is inclusive on the form: the API's is exclusive, so the day after.
    const end = to ? new Date(new Date(`${to}T00:00:00`).getTime() + 86_400_000).toISOString() : undefined;
    const answers = await Promise.all(
      BREAKDOWNS.map((by) =>
        tally.categories.groupStats(groupId, { by, from: startOf(from), to: end, currency }),
      ),
    );
    setStats(Object.fromEntries(BREAKDOWNS.map((by, i) => [by, answers[i]])));
  };

  useEffect(() => {
    let subscription;
    let timer;
    let closed = false;
    cached(`group.${groupId}`, () => tally.groups.get(groupId))
      .then(async (g) => {
        if (closed) return;
        setGroup(g);
        // Followed before the first read: no change falls between the read and the subscription.
        subscription = realtime?.subscribe(groupId, {
          onEvent: (event) => {
            if (!COUNTED.test(event.type)) return;
            clearTimeout(timer);
            timer = setTimeout(() => void read(g.currency).catch(() => {}), SETTLE_MS);
          },
        });
        await subscription?.confirmed.catch(() => {});
        if (!closed) await read(g.currency);
      })
      .catch((error) => say(describe(error), true));
    return () => {
      closed = true;
      clearTimeout(timer);
      subscription?.unsubscribe();
    };
  }, [groupId]);

  const apply = attempt(async (event) => {
    const form = new FormData(event.target);
    rangeRef.current = { from: String(form.get('from') ?? ''), to: String(form.get('to') ?? '') };
    setRange(rangeRef.current);
    await read(group.currency);
  });

  if (!group) return html`<section><p>${t('loading')}</p></section>`;
  const names = namesOf(group);
  const colorOf = (key) => categories.find((c) => c.id === key)?.color ?? undefined;
  const labelOf = (by, key) =>
    by === 'member' ? (names.get(key) ?? key) : by === 'category' ? categoryLabel(categories, key) : key;
  return html`<h1>${t('statistics')} <span class="muted">${group.name}</span></h1>
    <p><a href=${`#/g/${groupId}`}>${t('backToGroup')}</a></p>
    <form class="row" id="stats-range" onSubmit=${apply}>
      <label>${t('from')} <input type="date" name="from" defaultValue=${range.from} /></label>
      <label>${t('to')} <input type="date" name="to" defaultValue=${range.to} /></label>
      <button type="submit">${t('show')}</button>
    </form>
    ${
      !stats
        ? html`<p>${t('loading')}</p>`
        : BREAKDOWNS.map(
            (by) => html`<section key=${by} aria-labelledby=${`stats-${by}-title`}>
              <h2 id=${`stats-${by}-title`}>${t(`statsBy.${by}`)}</h2>
              ${stats[by].unconverted.length > 0 && html`<p class="muted">${t('unconverted', stats[by].unconverted.join(', '))}</p>`}
              ${chartsOf(stats[by]).length === 0 && html`<p class="muted">${t('nothingSpent')}</p>`}
              ${chartsOf(stats[by]).map(
                (c) => html`<${BarChart} key=${c.currency} id=${`chart-${by}-${c.currency}`}
                  title=${t('chartTitle', t(`statsBy.${by}`), c.currency, formatMoney(c.total, c.currency))}
                  currency=${c.currency}
                  rows=${c.buckets.map((b) => ({ key: b.key, label: labelOf(by, b.key), value: b.total, color: by === 'category' ? colorOf(b.key) : undefined }))} />`,
              )}
            </section>`,
          )
    }`;
}

/** My share across my groups by category (GET /v1/me/stats), one chart per currency. */
export function MyStats() {
  const [stats, setStats] = useState();
  useEffect(() => {
    tally.categories.myStats({ by: 'category' }).then(setStats, (error) => say(describe(error), true));
  }, []);
  if (!stats || stats.currencies.length === 0) return null;
  return html`<section aria-labelledby="my-stats-title" id="my-stats">
    <h2 id="my-stats-title">${t('myStats')}</h2>
    ${stats.currencies.map(
      (c) => html`<${BarChart} key=${c.currency} id=${`my-chart-${c.currency}`}
        title=${t('myChartTitle', c.currency, formatMoney(c.share, c.currency))} currency=${c.currency}
        rows=${c.buckets.map((b) => ({ key: b.key, label: categoryLabel([], b.key), value: b.share }))} />`,
    )}
  </section>`;
}
