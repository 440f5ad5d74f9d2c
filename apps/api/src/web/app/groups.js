// The user's groups, and the group open: its members and balances, live (API.md §3, §4), its CSV.
import { activityOf } from './activity.js';
import { listCategories, refreshStats } from './categories.js';
import { tally } from './client.js';
import { $, describe, element, handle, saveFile, say } from './dom.js';
import { closeComments, listExpenses, refreshComments, showExpenseEvent } from './expenses.js';
import { listClaimable } from './invites.js';
import { formatMoney } from './money.js';
import { fillRatesForm, settleIn, showConverted } from './rates.js';
import { refreshReceipt } from './receipts.js';
import { listRecurring } from './recurring.js';
import { me, realtime, showMe } from './session.js';
import { listWebhooks } from './webhooks.js';

/** The open group: `{ group, balances, unsubscribe }`. */
export let open;

/** A member's name; an id a member took over (a claimed pending member, still named by old records) resolves to them. */
export const nameOf = (userId) =>
  open?.group.members.find((m) => m.userId === userId || m.claimed?.includes(userId))?.name ?? userId;

/** A member of the open group as a choice of a select (its value, their id). */
export function memberOption(m) {
  return element('option', m.status === 'pending' ? `${m.name} (not on Tally yet)` : m.name, {
    value: m.userId,
  });
}

export async function listGroups() {
  // The gateway follows the groups the user is in when asked: ask again once they may have changed.
  realtime?.followActivity();
  const [page, user] = await Promise.all([
    tally.groups.list({ limit: 100 }),
    tally.auth.me(),
    listClaimable(),
  ]);
  showMe(user);
  $('group-list').replaceChildren(
    ...page.data.map((group) => {
      const archived = group.archivedAt ? ', archived' : '';
      const button = element('button', `${group.name} (${group.currency}${archived})`, { type: 'button' });
      button.dataset.groupId = group.id;
      button.addEventListener(
        'click',
        handle(() => openGroup(group.id)),
      );
      const item = element('li');
      item.append(button);
      return item;
    }),
  );
}

export function closeGroup() {
  open?.unsubscribe?.();
  open = undefined;
  $('group').hidden = true;
  closeComments();
}

export async function openGroup(groupId) {
  closeGroup();
  const [group, balances, rates] = await Promise.all([
    tally.groups.get(groupId),
    tally.groups.balances(groupId),
    tally.groups.rates(groupId),
  ]);
  open = { group, balances: balances.currencies, unsubscribe: undefined };
  fillRatesForm(rates);
  showSettings();
  $('group').hidden = false;
  $('group').dataset.groupId = groupId;
  $('activity').replaceChildren();
  renderMembers();
  renderBalances();
  await listRecurring(groupId);
  await listWebhooks(groupId);
  await listCategories(groupId);
  await listExpenses(groupId);
  await refreshStats(groupId);
  // A group without the rates the chosen currency needs still opens (and follows live).
  await showConverted().catch((error) => say(describe(error), true));
  // Live from the balances just read: every event after them, once, in order.
  open.unsubscribe = realtime.subscribe(groupId, {
    afterSeq: balances.asOfSeq,
    onEvent: (event) => {
      $('activity').prepend(element('li', activityOf(event)));
      if (
        event.type === 'member.added' ||
        event.type === 'member.removed' ||
        event.type === 'member.claimed'
      ) {
        handle(() => refreshMembers(groupId))();
      }
      if (event.type.startsWith('recurring.')) handle(() => listRecurring(groupId))();
      if (event.type === 'expense.receipt_changed') handle(() => refreshReceipt(event))();
      else if (event.type.startsWith('expense.')) showExpenseEvent(event);
      if (event.type.startsWith('category.')) handle(() => listCategories(groupId))();
      // A merge or delete moved expenses to another category (or none): their lines show it.
      if (event.type === 'category.merged' || event.type === 'category.deleted') {
        handle(() => listExpenses(groupId))();
      }
      if (event.type.startsWith('expense.') || event.type.startsWith('category.')) {
        handle(() => refreshStats(groupId))();
      }
      if (event.type.startsWith('comment.')) handle(() => refreshComments(event.data.comment))();
      if (event.type === 'rates.updated' && settleIn) handle(showConverted)();
      if (event.type === 'group.updated') {
        Object.assign(open.group, event.data.group);
        showSettings();
        renderBalances();
      }
    },
    onBalances: (update) => {
      if (open?.group.id !== update.groupId) return;
      // A live update carries the nets and simplified debts; the original ones come with a read.
      const original = new Map(open.balances.map((c) => [c.currency, c.original]));
      open.balances = update.currencies.map((c) => ({ ...c, original: original.get(c.currency) }));
      renderBalances();
      if (!open.group.simplifyDebts) handle(() => refreshBalances(groupId))();
      if (settleIn) handle(showConverted)();
    },
    onEnded: () => {
      closeGroup();
      say('You are no longer a member of that group.', true);
    },
  });
}

async function refreshBalances(groupId) {
  const balances = await tally.groups.balances(groupId);
  if (open?.group.id !== groupId) return;
  open.balances = balances.currencies;
  renderBalances();
}

/** The open group's settings: its default currency, which debts are shown, archived or not. */
function showSettings() {
  const { group } = open;
  $('group-name').textContent = `${group.name} (${group.currency})${group.archivedAt ? ', archived' : ''}`;
  $('group-currency').value = group.currency;
  $('show-original').checked = !group.simplifyDebts;
  $('archive-group').textContent = group.archivedAt ? 'Unarchive the group' : 'Archive the group';
}

async function refreshMembers(groupId) {
  const group = await tally.groups.get(groupId);
  if (open?.group.id !== groupId) return;
  open.group = group;
  renderMembers();
  renderBalances();
}

/** The open group's members as the payers to choose from, the user chosen. */
export function renderMembers() {
  for (const select of [$('paid-by'), $('recurring-paid-by'), $('receipt-paid-by')]) {
    select.replaceChildren(
      ...open.group.members.map((m) => {
        const option = memberOption(m);
        option.selected = m.userId === me.id;
        return option;
      }),
    );
  }
}

function remindButton(userId) {
  const button = element('button', 'Remind', { type: 'button', 'data-remind': userId });
  button.addEventListener(
    'click',
    handle(async () => {
      await tally.notifications.remind(open.group.id, userId);
      say(`${nameOf(userId)} is reminded.`);
    }),
  );
  return button;
}

function renderBalances() {
  const rows = [];
  const transfers = [];
  for (const { currency, members, simplified, original } of open.balances) {
    // The group's setting says which debts everyone sees (API.md §6).
    const debts = open.group.simplifyDebts ? simplified : (original ?? simplified);
    for (const { userId, net } of members) {
      const row = element('tr', undefined, { 'data-user-id': userId, 'data-currency': currency });
      row.dataset.net = String(net);
      row.append(element('td', nameOf(userId)), element('td', formatMoney(net, currency)));
      rows.push(row);
    }
    for (const t of debts) {
      const item = element('li', `${nameOf(t.from)} pays ${nameOf(t.to)} ${formatMoney(t.amount, currency)}`);
      // A debt to me: remind them (API.md §13.5, once a day per member).
      if (t.to === me.id) item.append(' ', remindButton(t.from));
      transfers.push(item);
    }
  }
  if (rows.length === 0) {
    const row = element('tr');
    row.append(element('td', 'No expenses yet.', { colspan: '2' }));
    rows.push(row);
  }
  $('balances').replaceChildren(...rows);
  $('transfers').replaceChildren(...transfers);
}

$('refresh-groups').addEventListener('click', handle(listGroups));

$('group-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    const group = await tally.groups.create({
      name: String(form.get('name')),
      currency: String(form.get('currency')),
    });
    event.target.reset();
    await listGroups();
    await openGroup(group.id);
    say(`Created ${group.name}.`);
  }),
);

$('group-settings-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    open.group = await tally.groups.update(open.group.id, { currency: String(form.get('currency')) });
    showSettings();
    say(`New expenses in ${open.group.name} are in ${open.group.currency} unless told otherwise.`);
  }),
);

$('show-original').addEventListener(
  'change',
  handle(async () => {
    const groupId = open.group.id;
    const group = await tally.groups.update(groupId, { simplifyDebts: !$('show-original').checked });
    Object.assign(open.group, group);
    await refreshBalances(groupId);
  }),
);

// An archived group stays readable but refuses every write (API.md §3) until it is unarchived.
$('archive-group').addEventListener(
  'click',
  handle(async () => {
    const group = await tally.groups.setArchived(open.group.id, !open.group.archivedAt);
    Object.assign(open.group, group);
    showSettings();
    await listGroups();
    say(group.archivedAt ? `${group.name} is archived.` : `${group.name} takes changes again.`);
  }),
);

$('member-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    const member = await tally.groups.addMember(open.group.id, { email: String(form.get('email')) });
    event.target.reset();
    say(`${member.name} is a member.`);
  }),
);

// ---- the group's export (API.md §11) ---------------------------------------------------------------
$('download-csv').addEventListener(
  'click',
  handle(async () => {
    const csv = await tally.groups.exportCsv(open.group.id);
    // The byte order mark that Response.text() dropped: Excel reads the file as UTF-8 only with it.
    const name = `${open.group.name.replace(/[^A-Za-z0-9_-]+/g, '-') || 'group'}.csv`;
    saveFile(`\uFEFF${csv}`, name, 'text/csv;charset=utf-8');
    say(`Downloaded ${name}.`);
  }),
);
