// Who changed what (API.md §15): an expense's versions as sentences among its comments, merged by
// time (the SDK's mergeTimeline), as Splitwise's system comments.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { mergeTimeline } from '../../../../../packages/client/src/index';
import { t } from './messages.js';
import { formatDateTime, formatMoney } from './money.js';
import { describe, say, tally } from './session.js';

/** The fields whose values are money (minor units). */
const MONEY = new Set(['amount', 'paidBy', 'shares', 'split.tax', 'split.tip']);

/** One value of a change as a reader says it: money in the record's currency, else as it is. */
function spoken(change, value, currency) {
  if (value === null || value === undefined) return t('history.nothing');
  if (MONEY.has(change.field) && typeof value === 'number') return formatMoney(value, currency);
  if (change.field === 'split.between') return value === true ? t('history.in') : String(value);
  if (change.field === 'split.items') return t('history.items', value.length);
  if (change.field === 'occurredAt') return String(value).slice(0, 10);
  return typeof value === 'string' ? `“${value}”` : JSON.stringify(value);
}

/** "amount changed from €6.99 to €8.99 by Ada", one line per change of a version. */
export function versionLines(version, nameOf) {
  const by = version.actorName ?? nameOf(version.actorId);
  if (version.action !== 'updated' || !version.changes) return [t(`history.${version.action}`, by)];
  const currency = version.record.currency;
  return version.changes.map((change) => {
    const who = change.userId ? nameOf(change.userId) : '';
    const named = t(`history.field.${change.field}`, who);
    const what = named.startsWith('history.') ? change.field : named;
    return t(
      'history.changed',
      what,
      spoken(change, change.from, currency),
      spoken(change, change.to, currency),
      by,
    );
  });
}

/** Every kept version of an expense, oldest first, and whether older ones are gone. */
async function historyOf(expenseId) {
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

/** The comments and the changes of an expense in one list, oldest first; read again when `comments` or `version` change. */
export function Timeline({ expenseId, version, comments, nameOf }) {
  const [history, setHistory] = useState({ versions: [], truncated: false });
  useEffect(() => {
    historyOf(expenseId).then(setHistory, (error) => say(describe(error), true));
  }, [expenseId, version]);
  const entries = mergeTimeline(history.versions, comments);
  return html`<ul class="plain" id="comment-list">
    ${history.truncated && html`<li class="change muted">${t('history.truncated')}</li>`}
    ${entries.map((entry) =>
      entry.kind === 'comment'
        ? html`<li key=${entry.comment.id}><strong>${nameOf(entry.comment.authorId)}</strong> ${entry.comment.text}
            <br /><span class="muted">${formatDateTime(entry.comment.createdAt)}</span></li>`
        : versionLines(entry.version, nameOf).map(
            (line, i) => html`<li key=${`${entry.version.seq}-${i}`} class="change">${line}
              <br /><span class="muted">${formatDateTime(entry.version.occurredAt)}</span></li>`,
          ),
    )}
  </ul>`;
}
