// A bar chart as hand-written SVG (no chart library: the bundle stays small). Every chart has a
// title, an aria-label per bar, and the same figures as a visually-hidden table for screen readers.
import { html } from 'htm/preact';
import { formatMoney } from './money.js';

const WIDTH = 320;
const ROW = 30;
const LABEL = 120;

/** `rows`: `{key, label, value, color?}` in minor units of `currency`; `id` names the chart. */
export function BarChart({ id, title, rows, currency }) {
  const max = Math.max(1, ...rows.map((r) => Math.abs(r.value)));
  const height = rows.length * ROW + 4;
  const room = WIDTH - LABEL - 4;
  return html`<figure class="chart" id=${id} data-currency=${currency}>
    <figcaption id=${`${id}-title`}>${title}</figcaption>
    <svg class="chart" viewBox=${`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby=${`${id}-title`}>
      <title>${title}</title>
      ${rows.map((r, i) => {
        const amount = formatMoney(r.value, currency);
        const y = i * ROW + 2;
        return html`<g key=${r.key ?? 'none'} data-key=${r.key ?? ''} data-total=${r.value} role="img" aria-label=${`${r.label}: ${amount}`}>
          <text x="0" y=${y + 12}>${r.label}</text>
          <rect class=${r.color ? undefined : r.value < 0 ? 'neg' : 'pos'} x=${LABEL} y=${y + 16} rx="3" height="10"
            width=${Math.max(1, (Math.abs(r.value) / max) * room)} fill=${r.color ?? undefined} />
          <text x=${WIDTH - 2} y=${y + 12} text-anchor="end">${amount}</text>
        </g>`;
      })}
    </svg>
    <table class="visually-hidden">
      <caption>${title}</caption>
      <tbody>${rows.map((r) => html`<tr key=${r.key ?? 'none'}><th scope="row">${r.label}</th><td>${formatMoney(r.value, currency)}</td></tr>`)}</tbody>
    </table>
  </figure>`;
}
