// The open group's recurring expenses (API.md §6a): scheduled, listed, stopped.
import { tally } from './client.js';
import { $, element, handle, say } from './dom.js';
import { equalExpense } from './expenses.js';
import { open, renderMembers } from './groups.js';
import { formatMoney } from './money.js';

$('recurring-time-zone').value = Intl.DateTimeFormat().resolvedOptions().timeZone;

$('recurring-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    const { group } = open;
    const recurring = await tally.recurring.create(group.id, {
      expense: equalExpense(form, group),
      schedule: {
        every: String(form.get('every')),
        startsOn: String(form.get('startsOn')),
        timeZone: String(form.get('timeZone')),
      },
    });
    event.target.reset();
    $('recurring-time-zone').value = Intl.DateTimeFormat().resolvedOptions().timeZone;
    renderMembers();
    await listRecurring(group.id);
    say(`Scheduled “${recurring.expense.description}”: the next one is on ${recurring.nextOccurrence}.`);
  }),
);

/** The open group's recurring expenses (API.md §6a), each with a button that stops it. */
export async function listRecurring(groupId) {
  const page = await tally.recurring.list(groupId, { limit: 100 });
  if (open?.group.id !== groupId) return;
  $('recurring-list').replaceChildren(
    ...page.data.map((r) => {
      const next = r.nextOccurrence ? `next ${r.nextOccurrence}` : 'over';
      const item = element(
        'li',
        `“${r.expense.description}”, ${formatMoney(r.expense.amount, r.expense.currency ?? open.group.currency)} ` +
          `every ${r.schedule.every} from ${r.schedule.startsOn} (${r.schedule.timeZone}), ${next} `,
      );
      item.dataset.recurringId = r.id;
      const stop = element('button', 'Stop', { type: 'button' });
      stop.addEventListener(
        'click',
        handle(async () => {
          await tally.recurring.delete(r.id);
          await listRecurring(groupId);
          say(`Stopped “${r.expense.description}”; its past expenses stay.`);
        }),
      );
      item.append(stop);
      return item;
    }),
  );
}
