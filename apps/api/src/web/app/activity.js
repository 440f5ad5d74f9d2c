// What happened: a line per event of the open group, and the feed across all groups (API.md §8a).
import { tally } from './client.js';
import { $, element, handle, say } from './dom.js';
import { nameOf } from './groups.js';
import { formatMoney } from './money.js';

/** One event of the open group, as a line of its activity. */
export function activityOf(event) {
  const who = nameOf(event.actorId);
  const data = event.data;
  switch (event.type) {
    case 'expense.created':
      return `${who} added “${data.expense.description}”, ${formatMoney(data.expense.amount, data.expense.currency)}`;
    case 'member.added':
      return `${who} added ${data.member.name}${data.member.status === 'pending' ? ' (not on Tally yet)' : ''}`;
    case 'member.claimed':
      return `${data.member.name} took over the place of a member added by name`;
    case 'recurring.created':
      return `${who} scheduled “${data.recurring.expense.description}” every ${data.recurring.schedule.every}`;
    case 'import.completed':
      return `${who} imported a Splitwise export: ${data.import.created} created, ${data.import.existing} already there, ${data.import.refusedCount} refused`;
    case 'recurring.skipped':
      return `The ${data.occurrenceDate} occurrence of a recurring expense was skipped: ${data.reason}`;
    default:
      return `${who}: ${event.type}`;
  }
}

// ---- activity across all groups (API.md §8a) ---------------------------------------------------------
/** The newest item shown: what "Mark all read" marks. */
let newestActivity;

export async function listMyActivity() {
  const page = await tally.activity.list({ limit: 20 });
  newestActivity = page.data[0]?.id;
  const unread = page.unreadCapped ? '100+' : String(page.unread);
  $('my-activity-unread').textContent = page.unread > 0 ? `(${unread} unread)` : '';
  $('my-activity').replaceChildren(
    ...page.data.map((item) =>
      element('li', `${new Date(item.occurredAt).toLocaleString()} · ${item.groupName} · ${item.type}`),
    ),
  );
}

$('my-activity-read').addEventListener(
  'click',
  handle(async () => {
    if (newestActivity === undefined) return;
    await tally.activity.markRead(newestActivity);
    await listMyActivity();
    say('All activity marked read.');
  }),
);
