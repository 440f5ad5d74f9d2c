// Who changed what (API.md §15): an expense's versions as sentences, in a "History" disclosure on
// each expense and among its comments, as Splitwise's system comments.
import { tally } from './client.js';
import { element, handle } from './dom.js';
import { nameOf } from './groups.js';
import { formatMoney } from './money.js';

/** The fields whose values are money (minor units), and what each is called in a sentence. */
const MONEY = new Set(['amount', 'paidBy', 'shares', 'split.tax', 'split.tip']);
const WHAT = {
  amount: 'amount',
  description: 'description',
  category: 'category',
  currency: 'currency',
  occurredAt: 'date',
  'split.type': 'split',
  'split.items': 'items',
  'split.tax': 'tax',
  'split.tip': 'tip',
};

/** One value of a change as a reader says it: money in the record's currency, else as it is. */
function spoken(change, value, currency) {
  if (value === null || value === undefined) return 'nothing';
  if (MONEY.has(change.field) && typeof value === 'number') return formatMoney(value, currency);
  // An exact split's weight is an amount; an equal split's is "in".
  if (change.field === 'split.between') return value === true ? 'in' : String(value);
  if (change.field === 'split.items') return `${value.length} item${value.length === 1 ? '' : 's'}`;
  if (change.field === 'occurredAt') return String(value).slice(0, 10);
  return typeof value === 'string' ? `“${value}”` : JSON.stringify(value);
}

/** "amount changed from 6.99 to 8.99", "Bob's share changed from 3.49 to 4.49". */
function changeText(change, currency) {
  const from = spoken(change, change.from, currency);
  const to = spoken(change, change.to, currency);
  const who = change.userId ? nameOf(change.userId) : '';
  const what =
    change.field === 'paidBy'
      ? `${who} paid`
      : change.field === 'shares'
        ? `${who}'s share`
        : change.field === 'split.between'
          ? `${who}'s part of the split`
          : (WHAT[change.field] ?? change.field);
  return `${what} changed from ${from} to ${to}`;
}

/** What one version did, in sentences ending "by <who>", with the time of day it happened. */
export function versionLines(version) {
  const by = `by ${version.actorName ?? nameOf(version.actorId)}`;
  const when = ` (${version.occurredAt.slice(0, 16).replace('T', ' ')})`;
  const currency = version.record.currency;
  if (version.action !== 'updated' || !version.changes) {
    const did = { created: 'added', updated: 'changed', deleted: 'deleted', restored: 'restored' }[
      version.action
    ];
    return [`${did} ${by}${when}`];
  }
  return version.changes.map((change) => `${changeText(change, currency)} ${by}${when}`);
}

/** Every kept version of an expense, oldest first (and whether older ones are gone). */
export async function historyOf(expenseId) {
  const versions = [];
  let truncated = false;
  let cursor;
  do {
    const page = await tally.history.list({ expenseId }, { limit: 50, cursor });
    versions.push(...page.data);
    truncated ||= page.truncated;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return { versions, truncated };
}

/** The "History" disclosure of an expense: read when first opened, again on each opening. */
export function historyDisclosure(expenseId) {
  const box = element('details', undefined, { class: 'history' });
  const list = element('ul');
  box.append(element('summary', 'History'), list);
  box.addEventListener(
    'toggle',
    handle(async () => {
      if (!box.open) return;
      const { versions, truncated } = await historyOf(expenseId);
      const lines = versions.flatMap(versionLines).map((line) => element('li', line));
      if (truncated) lines.unshift(element('li', 'Older changes are no longer kept.'));
      list.replaceChildren(...lines);
    }),
  );
  return box;
}
