// The open group's expenses: adding one, the list and its search, live, comments (API.md §5) and
// the receipt on file (§16, app/receipts.js).

import { mergeTimeline } from '../tally-client.js';
import { categoryLabel } from './categories.js';
import { tally } from './client.js';
import { $, element, handle, say } from './dom.js';
import { nameOf, open, renderMembers } from './groups.js';
import { historyDisclosure, historyOf, versionLines } from './history.js';
import { formatMoney, toMinor } from './money.js';
import { offerReceipt } from './receipts.js';
import { me } from './session.js';

/** The expense a form describes (of the expense or the recurring form): split equally between all members. */
export function equalExpense(form, group) {
  const categoryId = form.get('categoryId');
  return {
    ...(categoryId ? { categoryId: String(categoryId) } : {}),
    description: String(form.get('description')),
    amount: toMinor(String(form.get('amount')), group.currency),
    paidBy: String(form.get('paidBy')),
    split: { type: 'equal', between: group.members.map((m) => m.userId) },
  };
}

$('expense-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    const { group } = open;
    // One Idempotency-Key for this expense (the SDK makes it): its retries never add a second one.
    const body = equalExpense(form, group);
    // Income or a reimbursement is a negative expense (API.md §4): who received it "paid" less than 0.
    if (form.get('income')) body.amount = -body.amount;
    const expense = await tally.expenses.create({ groupId: group.id, ...body });
    event.target.reset();
    renderMembers();
    say(`Added “${expense.description}”.`);
  }),
);

/**
 * An itemized receipt (API.md §4, `split.type: "items"`) from the receipt form: a line per item,
 * its amount then the first names of who had it (none: everyone); tax and tip spread in proportion.
 */
function receiptExpense(form, group) {
  const minor = (name) =>
    String(form.get(name) ?? '').trim() ? toMinor(String(form.get(name)), group.currency) : 0;
  const byFirstName = new Map(group.members.map((m) => [m.name.split(' ')[0].toLowerCase(), m.userId]));
  const items = String(form.get('items'))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [amount, ...names] = line.split(/\s+/);
      const between = names.map((name) => {
        const userId = byFirstName.get(name.toLowerCase());
        if (!userId) throw new Error(`No member of this group is called ${name}.`);
        return userId;
      });
      return {
        amount: toMinor(amount, group.currency),
        between: between.length > 0 ? between : group.members.map((m) => m.userId),
      };
    });
  const tax = minor('tax');
  const tip = minor('tip');
  return {
    description: String(form.get('description')),
    amount: items.reduce((sum, item) => sum + item.amount, 0) + tax + tip,
    paidBy: String(form.get('paidBy')),
    split: { type: 'items', items, ...(tax > 0 ? { tax } : {}), ...(tip > 0 ? { tip } : {}) },
  };
}

$('receipt-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    const { group } = open;
    const expense = await tally.expenses.create({ groupId: group.id, ...receiptExpense(form, group) });
    event.target.reset();
    renderMembers();
    const shares = expense.shares.map((s) => `${nameOf(s.userId)} ${formatMoney(s.owed, expense.currency)}`);
    say(`Added “${expense.description}”: ${shares.join(', ')}.`);
  }),
);

// ---- search and comments (API.md §5.1, §5.2) -----------------------------------------------------

/** The expense whose comments are shown: `{ id, description }`. */
let commented;

/** The open group's expenses matching the search box (the first 50), each with its comments button. */
export async function listExpenses(groupId) {
  const q = $('search-q').value.trim();
  const page = await tally.expenses.list(groupId, { limit: 50, ...(q ? { q } : {}) });
  if (open?.group.id !== groupId) return;
  const items = page.data.map(expenseItem);
  if (items.length === 0) items.push(element('li', q ? `No expense matches “${q}”.` : 'No expenses yet.'));
  $('expense-list').replaceChildren(...items);
}

function expenseItem(e) {
  const item = element(
    'li',
    `“${e.description}”${e.categoryId ? ` [${categoryLabel(e.categoryId)}]` : ''}${e.category ? ` (${e.category})` : ''}, ${formatMoney(e.amount, e.currency)}, ` +
      `paid by ${e.paidBy.map((p) => nameOf(p.userId)).join(', ')} on ${e.occurredAt.slice(0, 10)} `,
  );
  item.dataset.expenseId = e.id;
  const comments = element('button', 'Comments', { type: 'button' });
  comments.addEventListener(
    'click',
    handle(() => showComments({ id: e.id, description: e.description })),
  );
  // A copy dated now (API.md §4); the SDK's key makes a retried click's request one copy.
  const copy = element('button', 'Duplicate', { type: 'button' });
  copy.addEventListener(
    'click',
    handle(async () => {
      const duplicate = await tally.expenses.duplicate(e.id);
      say(`Copied “${duplicate.description}”.`);
    }),
  );
  item.append(comments, ' ', copy, historyDisclosure(e.id));
  return item;
}

/**
 * A live expense event, applied to the list shown without a request: an edit replaces its line, a
 * delete removes it, a new expense goes on top (of the unfiltered list only: a search is run again
 * by its button).
 */
export function showExpenseEvent(event) {
  const expense = event.data.expense;
  const shown = [...$('expense-list').children].find((li) => li.dataset.expenseId === expense.id);
  if (event.type === 'expense.deleted') shown?.remove();
  else if (shown) shown.replaceWith(expenseItem(expense));
  else if (event.type === 'expense.created' && !$('search-q').value.trim()) {
    for (const li of [...$('expense-list').children]) if (!li.dataset.expenseId) li.remove();
    $('expense-list').prepend(expenseItem(expense));
  }
  // The comments shown are of this expense: its change goes among them (or it is gone).
  if (commented?.id === expense.id) {
    if (event.type === 'expense.deleted') closeComments();
    else handle(() => showComments(commented))();
  }
}

/**
 * The comments on one expense, oldest first, with its changes among them (API.md §15: two lists,
 * merged here by time); a comment's author may delete each of their own.
 */
async function showComments(expense) {
  commented = expense;
  const comments = [];
  for await (const c of tally.comments.listAll({ expenseId: expense.id }, { limit: 100 })) comments.push(c);
  const { versions } = await historyOf(expense.id);
  if (commented?.id !== expense.id) return;
  $('comments-section').hidden = false;
  $('comments-title').textContent = `Comments on “${expense.description}”`;
  offerReceipt(expense.id);
  $('comment-list').replaceChildren(
    ...mergeTimeline(versions, comments).flatMap((entry) =>
      entry.kind === 'change'
        ? versionLines(entry.version).map((line) => element('li', line, { class: 'change' }))
        : [commentItem(entry.comment, expense)],
    ),
  );
}

function commentItem(c, expense) {
  // textContent: the text is shown exactly as written, never as HTML.
  const item = element('li', `${nameOf(c.authorId)}: ${c.text} `);
  item.dataset.commentId = c.id;
  if (c.authorId === me?.id) {
    const remove = element('button', 'Delete', { type: 'button' });
    remove.addEventListener(
      'click',
      handle(async () => {
        await tally.comments.delete(c.id);
        await showComments(expense);
      }),
    );
    item.append(remove);
  }
  return item;
}

/** After a comment event: the comments shown again when they are the ones it changed. */
export async function refreshComments(comment) {
  if (commented && comment?.targetId === commented.id) await showComments(commented);
}

/** The group is closed: no comments shown. */
export function closeComments() {
  $('comments-section').hidden = true;
  commented = undefined;
}

$('search-form').addEventListener(
  'submit',
  handle(() => listExpenses(open.group.id)),
);

$('comment-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    // One Idempotency-Key per comment (the SDK makes it): a retry never posts it twice.
    await tally.comments.create({ expenseId: commented.id }, String(form.get('text')));
    event.target.reset();
    await showComments(commented);
    say('Comment added.');
  }),
);
