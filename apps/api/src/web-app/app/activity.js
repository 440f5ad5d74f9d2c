// Activity across my groups (API.md §8a), newest first, with the unread count; marking read.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from './messages.js';
import { formatDateTime, formatMoney } from './money.js';
import { attempt, describe, refreshUnread, say, tally, update, useStore } from './session.js';

/** Events said in a sentence of their own. */
const SENTENCES = {
  'import.completed': (data) => t('activityImport', data.import),
  'member.claimed': (data) => t('activityClaimed', data.member.name),
};

/** One line for an event: its kind, and what it names (as text). */
function textOf(item) {
  const data = item.data ?? {};
  const sentence = SENTENCES[item.type];
  if (sentence) return sentence(data);
  const thing = data.expense ?? data.settlement ?? data.comment ?? data.member ?? {};
  const what = thing.description ?? thing.text ?? thing.name ?? '';
  const amount =
    typeof thing.amount === 'number' && thing.currency ? formatMoney(thing.amount, thing.currency) : '';
  return [item.type.replace('.', ' '), what, amount].filter(Boolean).join(' · ');
}

const PAGE = 20;

export function ActivityScreen() {
  const { unread, live } = useStore();
  const [page, setPage] = useState();
  const load = () =>
    tally.activity.list({ limit: PAGE }).then((read) => {
      setPage(read);
      update({ unread: { unread: read.unread, unreadCapped: read.unreadCapped } });
    });
  useEffect(() => {
    load().catch((error) => say(describe(error), true));
  }, [unread.unread, live]);
  // Older items, page by page (API.md §8a: a walk never repeats or skips one).
  const more = attempt(async () => {
    const read = await tally.activity.list({ limit: PAGE, cursor: page.nextCursor });
    setPage({ ...read, data: [...page.data, ...read.data] });
  });
  const markRead = attempt(async () => {
    const newest = page?.data[0];
    if (newest) await tally.activity.markRead(newest.id);
    await refreshUnread();
  });
  return html`<section>
    <div class="row">
      <h1 class="grow">${t('activity')}</h1>
      <span id="activity-unread">${t('unread', unread.unread, unread.unreadCapped)}</span>
      <button type="button" onClick=${markRead}>${t('markAllRead')}</button>
    </div>
    ${page?.data.length === 0 && html`<p class="muted">${t('noActivity')}</p>`}
    <ol class="plain" id="activity-list">
      ${(page?.data ?? []).map(
        (item) => html`<li key=${item.id}>
          <a href=${`#/g/${item.groupId}`}>${item.groupName}</a> ${textOf(item)}
          <br /><span class="muted">${formatDateTime(item.occurredAt)}</span>
        </li>`,
      )}
    </ol>
    ${page?.nextCursor && html`<button type="button" id="activity-more" onClick=${more}>${t('activityMore')}</button>`}
  </section>`;
}
