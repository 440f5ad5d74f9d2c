// The open group's categories (the picker of the expense form, adding one of the group's own) and
// its statistics as inline SVG bars (API.md §14). Every label goes in as text, never as HTML.
import { tally } from './client.js';
import { $, element, handle, say } from './dom.js';
import { nameOf, open } from './groups.js';
import { formatMoney } from './money.js';

const SVG = 'http://www.w3.org/2000/svg';

/** The open group's categories by id: `{ name, icon, color }`. */
let categories = new Map();

/** A category's label: its icon and name; an id no longer listed (a deleted one) as itself. */
export function categoryLabel(categoryId) {
  const c = categories.get(categoryId);
  return c ? `${c.icon ? `${c.icon} ` : ''}${c.name}` : categoryId;
}

/** Fills the expense form's picker with the group's categories (the defaults, then its own). */
export async function listCategories(groupId) {
  const list = await tally.categories.list(groupId);
  if (open?.group.id !== groupId) return;
  categories = new Map(list.map((c) => [c.id, c]));
  const picker = $('category-picker');
  const chosen = picker.value;
  picker.replaceChildren(
    element('option', '(no category)', { value: '' }),
    ...list.map((c) => element('option', categoryLabel(c.id), { value: c.id })),
  );
  if (categories.has(chosen)) picker.value = chosen;
}

$('category-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    const icon = String(form.get('icon')).trim();
    const category = await tally.categories.create(open.group.id, {
      name: String(form.get('name')),
      ...(icon ? { icon } : {}),
      color: String(form.get('color')),
    });
    event.target.reset();
    await listCategories(open.group.id);
    say(`Added the category “${category.name}”.`);
  }),
);

/** A bar chart of `rows` (`{label, value, color?}`) as inline SVG: one bar a row, its label and amount as text. */
function barChart(rows, currency) {
  const width = 360;
  const bar = 18;
  const gap = 6;
  const labelWidth = 130;
  const max = Math.max(1, ...rows.map((r) => Math.abs(r.value)));
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('width', String(width + labelWidth + 110));
  svg.setAttribute('height', String(rows.length * (bar + gap) + gap));
  svg.setAttribute('role', 'img');
  rows.forEach((r, i) => {
    const y = gap + i * (bar + gap);
    const label = document.createElementNS(SVG, 'text');
    label.setAttribute('x', '0');
    label.setAttribute('y', String(y + bar - 5));
    label.textContent = r.label;
    const rect = document.createElementNS(SVG, 'rect');
    rect.setAttribute('x', String(labelWidth));
    rect.setAttribute('y', String(y));
    rect.setAttribute('height', String(bar));
    rect.setAttribute('width', String(Math.max(1, Math.round((Math.abs(r.value) / max) * width))));
    rect.setAttribute('fill', r.color ?? '#3d5a80');
    const amount = document.createElementNS(SVG, 'text');
    amount.setAttribute('x', String(labelWidth + width + 6));
    amount.setAttribute('y', String(y + bar - 5));
    amount.textContent = formatMoney(r.value, currency);
    svg.append(label, rect, amount);
  });
  return svg;
}

/** The label of a bucket of the breakdown `by`. */
function bucketLabel(by, key) {
  if (by === 'member') return nameOf(key);
  if (by === 'category') return key === null ? '(no category)' : categoryLabel(key);
  return key ?? '';
}

/** The open group's spending by the chosen breakdown: per currency, a bar per bucket. */
export async function showStats(groupId) {
  const by = $('stats-by').value;
  const stats = await tally.categories.groupStats(groupId, { by });
  if (open?.group.id !== groupId) return;
  const parts = stats.currencies.flatMap((c) => {
    const heading = element(
      'p',
      `${c.currency}: ${formatMoney(c.total, c.currency)} in ${c.expenses} expenses`,
    );
    const rows = c.buckets.map((b) => ({
      label: bucketLabel(by, b.key),
      value: b.total,
      color: by === 'category' ? (categories.get(b.key)?.color ?? undefined) : undefined,
    }));
    return [heading, barChart(rows, c.currency)];
  });
  $('stats').replaceChildren(...(parts.length > 0 ? parts : [element('p', 'Nothing spent yet.')]));
}

/**
 * The statistics again, if they are shown: a statistics read costs the group's ledger (API.md §14.2),
 * so it is made when the panel is opened and, while it is open, after a change; a closed panel reads
 * nothing.
 */
export async function refreshStats(groupId) {
  if ($('stats-panel').open) await showStats(groupId);
}

for (const [id, event] of [
  ['stats-by', 'change'],
  ['stats-panel', 'toggle'],
]) {
  $(id).addEventListener(
    event,
    handle(async () => {
      if (open) await refreshStats(open.group.id);
    }),
  );
}
