// The demo web client (apps/api/src/web/web-client.ts): everything goes through the browser build of
// the TypeScript SDK, served beside this file. Tokens live in memory: a reload signs out.
import { TallyClient } from './tally-client.js';

const $ = (id) => document.getElementById(id);
const tally = new TallyClient({
  baseUrl: window.location.origin,
  onSessionExpired: () => signedOut('Your session expired: log in again.'),
});
/** The SDK's RealtimeClient of the session: one WebSocket for every open group. */
let realtime;
let me;
/** The open group: `{ group, balances, unsubscribe }`. */
let open;

function say(text, error = false) {
  $('status').textContent = text;
  $('status').className = error ? 'error' : '';
}

function describe(error) {
  const fields = (error?.errors ?? []).map((e) => `${e.path}: ${e.message}`).join('; ');
  return (error?.problem?.detail || error?.message || String(error)) + (fields ? ` (${fields})` : '');
}

/** Runs a handler of the page, reporting its failure instead of losing it. */
function handle(action) {
  return (event) => {
    event?.preventDefault();
    action(event).catch((error) => say(describe(error), true));
  };
}

function element(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/**
 * ISO 4217 minor units, as the server converts with them (packages/domain/src/minor-units.ts): the
 * codes that differ from 2. Not the browser's display digits: CLDR shows HUF, IDR or IQD without
 * decimals, but an amount in them counts cents (fils for IQD), as the API's minor units do.
 */
const ISO_DIGITS = Object.fromEntries([
  ...'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'.split(' ').map((c) => [c, 0]),
  ...'BHD IQD JOD KWD LYD OMR TND'.split(' ').map((c) => [c, 3]),
  ['CLF', 4],
  ['UYW', 4],
]);
const fractionDigits = (currency) => ISO_DIGITS[currency] ?? 2;

/** "12.5" INR → 1250 (minor units), exactly: no floating point on the way in. */
function toMinor(text, currency) {
  const digits = fractionDigits(currency);
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!match || (match[2] ?? '').length > digits) {
    throw new Error(`The amount must be a number with at most ${digits} decimals.`);
  }
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || '0');
}

const formatMoney = (minor, currency) => {
  const digits = fractionDigits(currency);
  return new Intl.NumberFormat(undefined, {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(minor / 10 ** digits);
};

/** A member's name; an id a member took over (a claimed pending member, still named by old records) resolves to them. */
const nameOf = (userId) =>
  open?.group.members.find((m) => m.userId === userId || m.claimed?.includes(userId))?.name ?? userId;

/** Who is signed in, and whether their address still waits to be confirmed (API.md §2.5). */
function showMe(user) {
  me = user;
  $('who-name').textContent = `${me.name} <${me.email}>`;
  $('verify-email').textContent = me.email;
  $('verify-box').hidden = me.emailVerified !== false;
}

async function signedIn(session) {
  showMe(session.user);
  $('who').hidden = false;
  $('auth').hidden = true;
  $('groups').hidden = false;
  realtime = tally.realtime();
  realtime.on('state', (state) => {
    $('live').textContent = state;
  });
  realtime.on('error', (error) => say(`Live updates: ${error.message}`, true));
  // Activity across every group (API.md §8a): a notice per new event, then the feed's first page.
  realtime.on('activity', () => void listMyActivity().catch(() => {}));
  realtime.followActivity();
  realtime.connect();
  await Promise.all([listGroups(), listMyActivity(), listSessions()]);
  say(`Welcome, ${me.name}.`);
}

function signedOut(message) {
  closeGroup();
  realtime?.close();
  realtime = undefined;
  me = undefined;
  $('who').hidden = true;
  $('auth').hidden = false;
  $('groups').hidden = true;
  say(message);
}

async function listGroups() {
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
      const button = element('button', `${group.name} (${group.currency})`, { type: 'button' });
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

function closeGroup() {
  open?.unsubscribe?.();
  open = undefined;
  $('group').hidden = true;
  $('comments-section').hidden = true;
  commented = undefined;
}

async function openGroup(groupId) {
  closeGroup();
  const [group, balances, rates] = await Promise.all([
    tally.groups.get(groupId),
    tally.groups.balances(groupId),
    tally.groups.rates(groupId),
  ]);
  open = { group, balances: balances.currencies, unsubscribe: undefined };
  fillRatesForm(rates);
  $('group').hidden = false;
  $('group').dataset.groupId = groupId;
  $('group-name').textContent = `${group.name} (${group.currency})`;
  $('activity').replaceChildren();
  renderMembers();
  renderBalances();
  await listRecurring(groupId);
  await listExpenses(groupId);
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
      if (event.type.startsWith('expense.')) showExpenseEvent(event);
      if (event.type.startsWith('comment.')) handle(() => refreshComments(event.data.comment))();
      if (event.type === 'rates.updated' && settleIn) handle(showConverted)();
    },
    onBalances: (update) => {
      if (open?.group.id !== update.groupId) return;
      open.balances = update.currencies;
      renderBalances();
      if (settleIn) handle(showConverted)();
    },
    onEnded: () => {
      closeGroup();
      say('You are no longer a member of that group.', true);
    },
  });
}

async function refreshMembers(groupId) {
  const group = await tally.groups.get(groupId);
  if (open?.group.id !== groupId) return;
  open.group = group;
  renderMembers();
  renderBalances();
}

function activityOf(event) {
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

function renderMembers() {
  for (const select of [$('paid-by'), $('recurring-paid-by')]) {
    select.replaceChildren(
      ...open.group.members.map((m) => {
        const option = element('option', m.status === 'pending' ? `${m.name} (not on Tally yet)` : m.name, {
          value: m.userId,
        });
        option.selected = m.userId === me.id;
        return option;
      }),
    );
  }
}

/** The open group's recurring expenses (API.md §6a), each with a button that stops it. */
async function listRecurring(groupId) {
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

function renderBalances() {
  const rows = [];
  const transfers = [];
  for (const { currency, members, simplified } of open.balances) {
    for (const { userId, net } of members) {
      const row = element('tr', undefined, { 'data-user-id': userId, 'data-currency': currency });
      row.dataset.net = String(net);
      row.append(element('td', nameOf(userId)), element('td', formatMoney(net, currency)));
      rows.push(row);
    }
    for (const t of simplified) {
      transfers.push(
        element('li', `${nameOf(t.from)} pays ${nameOf(t.to)} ${formatMoney(t.amount, currency)}`),
      );
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

$('auth-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    const email = String(form.get('email'));
    const password = String(form.get('password'));
    const session =
      event.submitter?.value === 'register'
        ? await tally.auth.register({ email, password, name: String(form.get('name')).trim() || email })
        : await tally.auth.login({ email, password });
    event.target.reset();
    await signedIn(session);
  }),
);

/** Signs this session (or every one) out on the server; the tokens here are forgotten whatever it answers. */
async function signOut(everywhere) {
  const failure = await (everywhere ? tally.auth.logoutAll() : tally.auth.logout()).then(
    () => undefined,
    (error) => error,
  );
  const done = everywhere ? 'Signed out everywhere.' : 'Signed out.';
  signedOut(failure ? `Signed out on this device; the server did not confirm: ${describe(failure)}` : done);
}

$('sign-out').addEventListener(
  'click',
  handle(() => signOut(false)),
);

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

$('member-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    const member = await tally.groups.addMember(open.group.id, { email: String(form.get('email')) });
    event.target.reset();
    say(`${member.name} is a member.`);
  }),
);

$('recurring-time-zone').value = Intl.DateTimeFormat().resolvedOptions().timeZone;

$('recurring-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    const { group } = open;
    const recurring = await tally.recurring.create(group.id, {
      expense: {
        description: String(form.get('description')),
        amount: toMinor(String(form.get('amount')), group.currency),
        paidBy: String(form.get('paidBy')),
        split: { type: 'equal', between: group.members.map((m) => m.userId) },
      },
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

$('expense-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    const { group } = open;
    // One Idempotency-Key for this expense (the SDK makes it): its retries never add a second one.
    const expense = await tally.expenses.create({
      groupId: group.id,
      description: String(form.get('description')),
      amount: toMinor(String(form.get('amount')), group.currency),
      paidBy: String(form.get('paidBy')),
      split: { type: 'equal', between: group.members.map((m) => m.userId) },
    });
    event.target.reset();
    renderMembers();
    say(`Added “${expense.description}”.`);
  }),
);

// ---- people not on Tally yet, invite links and claims (API.md §3.1–§3.3) -------------------------

$('pending-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    const email = String(form.get('email')).trim();
    const name = String(form.get('name'));
    const member = await tally.groups.addMember(open.group.id, email ? { name, email } : { name });
    event.target.reset();
    say(`${member.name} was added: they are not on Tally yet.`);
  }),
);

$('make-invite').addEventListener(
  'click',
  handle(async () => {
    const invite = await tally.invites.create(open.group.id);
    const link = `${window.location.origin}/?invite=${invite.code}`;
    $('invite-link').textContent = link;
    say(`Invite link made; it works until ${new Date(invite.expiresAt).toLocaleString()}.`);
  }),
);

/** The code of a pasted invite link (`…?invite=<code>`), or the code itself. */
function inviteCodeOf(text) {
  const trimmed = text.trim();
  try {
    return new URL(trimmed).searchParams.get('invite') ?? trimmed;
  } catch {
    return trimmed;
  }
}

/** The invite being looked at: its code. */
let joining;

$('join-form').addEventListener(
  'submit',
  handle(async (event) => {
    const code = inviteCodeOf(String(new FormData(event.target).get('invite')));
    const preview = await tally.invites.preview(code);
    joining = code;
    $('join-summary').textContent = `${preview.groupName}: ${preview.memberCount} member(s)${
      preview.isMember ? ', you among them' : ''
    }.`;
    $('join-as').replaceChildren(
      element('option', 'Myself, as a new member', { value: '' }),
      ...preview.pendingMembers.map((m) =>
        element('option', `${m.name} (take over their place)`, { value: m.userId }),
      ),
    );
    $('join-preview').hidden = false;
  }),
);

$('accept-form').addEventListener(
  'submit',
  handle(async (event) => {
    const asMember = String(new FormData(event.target).get('asMember'));
    const group = await tally.invites.accept(joining, asMember ? { asMember } : {});
    $('join-preview').hidden = true;
    $('join-form').reset();
    await listGroups();
    await openGroup(group.id);
    say(`You are in ${group.name}.`);
  }),
);

// An invite link opens this page with `?invite=<code>`: ready to look at once signed in.
const invited = new URLSearchParams(window.location.search).get('invite');
if (invited) $('join-form').elements.namedItem('invite').value = invited;
/** Pending members added with this account's email: each can be claimed with one click. */
async function listClaimable() {
  const claimable = await tally.invites.claimable();
  $('claimable').replaceChildren(
    ...claimable.map((c) => {
      const button = element('button', `Be ${c.name} in ${c.groupName}`, { type: 'button' });
      button.addEventListener(
        'click',
        handle(async () => {
          const group = await tally.invites.claim(c.groupId, c.memberId);
          await listGroups();
          await openGroup(group.id);
          say(`You took over ${c.name}'s place in ${group.name}.`);
        }),
      );
      const item = element('li');
      item.append(button);
      return item;
    }),
  );
  $('claimable-box').hidden = claimable.length === 0;
}

// ---- settling in one currency (API.md §6): the balances converted, and the group's own rates ----

/** The currency the balances are also shown converted into; '' for none. */
let settleIn = '';

$('settle-in').append(
  ...Intl.supportedValuesOf('currency').map((code) => element('option', code, { value: code })),
);

async function showConverted() {
  const groupId = open?.group.id;
  const converted =
    groupId && settleIn ? (await tally.groups.balances(groupId, { in: settleIn })).converted : undefined;
  if (open?.group.id !== groupId) return;
  $('converted-table').hidden = !converted;
  $('converted-currency').textContent = converted?.currency ?? '';
  $('converted').replaceChildren(
    ...(converted?.members ?? []).map(({ userId, net }) => {
      const row = element('tr', undefined, { 'data-user-id': userId, 'data-net': String(net) });
      row.append(element('td', nameOf(userId)), element('td', formatMoney(net, converted.currency)));
      return row;
    }),
  );
  $('converted-transfers').replaceChildren(
    ...(converted?.simplified ?? []).map((t) =>
      element('li', `${nameOf(t.from)} pays ${nameOf(t.to)} ${formatMoney(t.amount, converted.currency)}`),
    ),
  );
  $('converted-rates').textContent = converted?.rates.length
    ? `Rates: ${converted.rates.map((r) => `1 ${r.base} = ${r.rate} ${r.currency} (${r.source}, ${r.asOf})`).join('; ')}`
    : '';
}

function fillRatesForm(rates) {
  const form = $('rates-form');
  form.elements.base.value = rates.base ?? open.group.currency;
  form.elements.rates.value = Object.entries(rates.rates)
    .map(([code, rate]) => `${code} ${rate}`)
    .join('\n');
  form.elements.asOf.value = rates.asOf ?? new Date().toISOString().slice(0, 10);
}

$('settle-in').addEventListener(
  'change',
  handle(async (event) => {
    settleIn = event.target.value;
    await showConverted();
  }),
);

$('rates-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    // "USD 1.0823" or "USD=1.0823", one per line; the rate stays a string (never a float).
    const rates = {};
    for (const line of String(form.get('rates')).split('\n')) {
      const [code, rate] = line.trim().split(/[\s=:]+/);
      if (code) rates[code.toUpperCase()] = rate ?? '';
    }
    const saved = await tally.groups.setRates(open.group.id, {
      base: String(form.get('base')),
      rates,
      asOf: String(form.get('asOf')),
    });
    fillRatesForm(saved);
    await showConverted();
    say('Saved the group’s rates.');
  }),
);

// ---- exports and account deletion (API.md §11) ---------------------------------------------------

/** Saves `text` as a file, through a link to a blob (the page's own origin; nothing is uploaded). */
function saveFile(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = element('a', undefined, { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

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

$('download-my-data').addEventListener(
  'click',
  handle(async () => {
    const data = await tally.me.export();
    saveFile(JSON.stringify(data, null, 2), 'tally-my-data.json', 'application/json');
    say(`Downloaded your data: ${data.groups.length} group(s).`);
  }),
);

$('delete-account').addEventListener(
  'click',
  handle(async () => {
    const sure = window.confirm(
      'Delete your account? Your name and email are erased and you cannot sign in again. ' +
        'Your groups keep their history, showing you as "Deleted user".',
    );
    if (!sure) return;
    await tally.me.delete();
    signedOut('Your account is deleted.');
  }),
);

// ---- sessions: where the user is signed in (API.md §2) ----------------------------------------------
async function listSessions() {
  const sessions = await tally.sessions.list();
  $('sessions').replaceChildren(
    ...sessions.map((s) => {
      const item = element(
        'li',
        `${s.userAgent ?? 'Unknown device'} · ${s.ip ?? 'unknown IP'} · last used ${new Date(s.lastUsedAt).toLocaleString()}`,
      );
      item.dataset.sessionId = s.id;
      if (s.current) item.append(' ', element('strong', '(this device)'));
      const button = element('button', 'Sign out', { type: 'button' });
      button.addEventListener(
        'click',
        handle(async () => {
          if (s.current) return signOut(false);
          await tally.sessions.revoke(s.id);
          await listSessions();
          say('That device is signed out.');
        }),
      );
      item.append(' ', button);
      return item;
    }),
  );
}

$('refresh-sessions').addEventListener('click', handle(listSessions));

$('sign-out-everywhere').addEventListener(
  'click',
  handle(async () => {
    if (!window.confirm('Sign out on every device, this one included?')) return;
    await signOut(true);
  }),
);

// ---- activity across all groups (API.md §8a) ---------------------------------------------------------
/** The newest item shown: what "Mark all read" marks. */
let newestActivity;

async function listMyActivity() {
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

// ---- search and comments (API.md §5.1, §5.2) -----------------------------------------------------

/** The expense whose comments are shown: `{ id, description }`. */
let commented;

/** The open group's expenses matching the search box (the first 50), each with its comments button. */
async function listExpenses(groupId) {
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
    `“${e.description}”${e.category ? ` (${e.category})` : ''}, ${formatMoney(e.amount, e.currency)}, ` +
      `paid by ${e.paidBy.map((p) => nameOf(p.userId)).join(', ')} on ${e.occurredAt.slice(0, 10)} `,
  );
  item.dataset.expenseId = e.id;
  const comments = element('button', 'Comments', { type: 'button' });
  comments.addEventListener(
    'click',
    handle(() => showComments({ id: e.id, description: e.description })),
  );
  item.append(comments);
  return item;
}

/**
 * A live expense event, applied to the list shown without a request: an edit replaces its line, a
 * delete removes it, a new expense goes on top (of the unfiltered list only: a search is run again
 * by its button).
 */
function showExpenseEvent(event) {
  const expense = event.data.expense;
  const shown = [...$('expense-list').children].find((li) => li.dataset.expenseId === expense.id);
  if (event.type === 'expense.deleted') shown?.remove();
  else if (shown) shown.replaceWith(expenseItem(expense));
  else if (event.type === 'expense.created' && !$('search-q').value.trim()) {
    for (const li of [...$('expense-list').children]) if (!li.dataset.expenseId) li.remove();
    $('expense-list').prepend(expenseItem(expense));
  }
}

/** The comments on one expense, oldest first; its author may delete each of their own. */
async function showComments(expense) {
  commented = expense;
  const comments = [];
  for await (const c of tally.comments.listAll({ expenseId: expense.id }, { limit: 100 })) comments.push(c);
  if (commented?.id !== expense.id) return;
  $('comments-section').hidden = false;
  $('comments-title').textContent = `Comments on “${expense.description}”`;
  $('comment-list').replaceChildren(
    ...comments.map((c) => {
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
    }),
  );
}

/** After a comment event: the comments shown again when they are the ones it changed. */
async function refreshComments(comment) {
  if (commented && comment?.targetId === commented.id) await showComments(commented);
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

// ---- importing a Splitwise export (API.md §6b) ---------------------------------------------------

/** The person columns of a Splitwise export: its header's fields after Date…Currency (RFC 4180). */
function peopleOfExport(text) {
  const fields = [];
  let field = '';
  let quoted = false;
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') break;
    else field += c;
  }
  fields.push(field);
  return fields.slice(5).map((name) => name.trim());
}

/** The file picked: one member choice per person column, the member of the same first name preselected. */
let importFile;
$('import-file').addEventListener(
  'change',
  handle(async (event) => {
    const file = event.target.files?.[0];
    importFile = file ? await file.text() : undefined;
    $('import-report').replaceChildren();
    const people = importFile ? peopleOfExport(importFile) : [];
    $('import-mapping').replaceChildren(
      ...people.map((person) => {
        const select = element('select', undefined, { 'data-person': person });
        const first = person.split(' ')[0]?.toLowerCase();
        select.replaceChildren(
          ...open.group.members.map((m) => {
            const option = element(
              'option',
              m.status === 'pending' ? `${m.name} (not on Tally yet)` : m.name,
              {
                value: m.userId,
              },
            );
            option.selected = m.name.split(' ')[0]?.toLowerCase() === first;
            return option;
          }),
        );
        const label = element('label', `${person} is `);
        label.append(select);
        return label;
      }),
    );
  }),
);

$('import-form').addEventListener(
  'submit',
  handle(async () => {
    if (!importFile) throw new Error('Choose a Splitwise export first.');
    const members = Object.fromEntries(
      [...$('import-mapping').querySelectorAll('select')].map((s) => [s.dataset.person, s.value]),
    );
    say('Importing… (a large file takes a while)');
    // One Idempotency-Key for this import (the SDK makes it); the same file again never adds a row twice.
    const report = await tally.imports.create(open.group.id, { csv: importFile, members });
    $('import-report').replaceChildren(
      element(
        'p',
        `${report.created} created, ${report.existing} already there, ${report.refusedCount} refused.`,
      ),
      element('ul'),
    );
    // The report lists the first refusals; the rest are paged from …/refusals (API.md §6b).
    const more = report.refusedCount - report.refused.length;
    $('import-report')
      .querySelector('ul')
      .replaceChildren(
        ...report.refused.map((r) => element('li', `Line ${r.line}: ${r.reason}`)),
        ...(more > 0 ? [element('li', `… and ${more} more.`)] : []),
      );
    say(`Imported: ${report.created} created, ${report.existing} already there.`);
  }),
);

// ---- password: forgot, reset by the mailed link, change (API.md §2.4) ------------------------------
$('forgot-form').addEventListener(
  'submit',
  handle(async (event) => {
    const email = String(new FormData(event.target).get('email'));
    await tally.auth.requestPasswordReset(email);
    event.target.reset();
    say(`If ${email} has an account, a link to set a new password is on its way.`);
  }),
);

/** The token of a reset link (`…/#reset=<token>`); the fragment never reaches a server. */
const resetToken = /^#reset=([A-Za-z0-9_-]+)$/.exec(window.location.hash)?.[1];
if (resetToken) {
  // Out of the address bar (and the history) at once: the link works only once anyway.
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  $('reset').hidden = false;
  $('auth').hidden = true;
}

$('reset-form').addEventListener(
  'submit',
  handle(async (event) => {
    const password = String(new FormData(event.target).get('password'));
    await tally.auth.confirmPasswordReset(resetToken, password);
    event.target.reset();
    $('reset').hidden = true;
    $('auth').hidden = false;
    say('Your password is set, and every session has ended: log in with the new password.');
  }),
);

$('change-password-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    await tally.me.changePassword(String(form.get('current')), String(form.get('new')));
    event.target.reset();
    say('Password changed. Your other devices are signed out; this one stays signed in.');
  }),
);

// ---- email: confirmed by the mailed link, mailed again, changed (API.md §2.5) ---------------------

/** The token of a verification link (`…/#verify-email=<token>`); the fragment never reaches a server. */
const verifyToken = /^#verify-email=([A-Za-z0-9_-]+)$/.exec(window.location.hash)?.[1];
if (verifyToken) {
  // Out of the address bar at once: the link works only once anyway. No sign-in needed.
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  tally.auth.verifyEmail(verifyToken).then(
    () => say('Your email address is confirmed.'),
    (error) => say(`This link does not work (any more): ${describe(error)}`, true),
  );
}

$('resend-verification').addEventListener(
  'click',
  handle(async () => {
    const sent = await tally.me.requestEmailVerification();
    say(sent ? `A new link is on its way to ${sent.email}.` : 'Your email address is confirmed already.');
  }),
);

$('change-email-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    const sent = await tally.me.changeEmail(String(form.get('email')), String(form.get('password')));
    event.target.reset();
    say(
      sent
        ? `A link is on its way to ${sent.email}; until you open it you keep signing in with ${me.email}.`
        : 'That is your address already.',
    );
  }),
);
