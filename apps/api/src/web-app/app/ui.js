// Small shared pieces: the route, fields, the balance bars, the QR code. Everything user-made goes in
// as text (Preact escapes it); nothing is ever set as HTML.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { encode } from 'uqr';
import { t } from './messages.js';
import { formatMoney } from './money.js';

/** The route: the URL's hash split on `/` (`#/g/grp_1` → ['g', 'grp_1']). */
export function useRoute() {
  const read = () => window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const onChange = () => setRoute(read());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

export const go = (hash) => {
  window.location.hash = hash;
};

/** A labelled input. */
export function Field({ label, ...input }) {
  return html`<label>${label} <input ...${input} /></label>`;
}

/** Member names by id (a group's members, pending ones included). */
export const namesOf = (group) => new Map((group?.members ?? []).map((m) => [m.userId, m.name]));

/**
 * Each member's net as a horizontal bar from a middle line: right (owed money) or left (owes), with
 * the name and amount on the other side of the line, in the bar's row. An SVG with a title and the
 * amounts as text, so it reads without the picture.
 */
export function BalanceBars({ currency, members, names }) {
  const rowHeight = 34;
  const width = 320;
  const middle = width / 2;
  const max = Math.max(1, ...members.map((m) => Math.abs(m.net)));
  const height = members.length * rowHeight + 8;
  return html`<svg class="bars" viewBox=${`0 0 ${width} ${height}`} role="img" aria-labelledby=${`bars-${currency}`}>
    <title id=${`bars-${currency}`}>${t('balancesChart', currency)}</title>
    <line x1=${middle} x2=${middle} y1="0" y2=${height} />
    ${members.map((m, i) => {
      const length = (Math.abs(m.net) / max) * (middle - 4);
      const y = i * rowHeight + 4;
      const x = m.net >= 0 ? middle : middle - length;
      const label = `${names.get(m.userId) ?? m.userId} ${formatMoney(m.net, currency)}`;
      return html`<g key=${m.userId} data-member=${m.userId} data-net=${m.net}>
        <rect class=${m.net >= 0 ? 'pos' : 'neg'} x=${x} y=${y + 8} width=${Math.max(length, 1)} height="14" rx="3" />
        <text x=${m.net >= 0 ? middle - 6 : middle + 6} y=${y + 20} text-anchor=${m.net >= 0 ? 'end' : 'start'}>${label}</text>
      </g>`;
    })}
  </svg>`;
}

/** A QR code of `text` as SVG modules drawn by Preact (uqr encodes; no markup strings). */
export function QrCode({ text, label }) {
  const { data, size } = encode(text, { border: 1 });
  let d = '';
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    });
  });
  return html`<svg class="qr" viewBox=${`0 0 ${size} ${size}`} role="img" aria-label=${label}><path d=${d} /></svg>`;
}
