// One group: balances as bars with "settle up" from the simplified debts, expenses with search,
// settlements, members (pending ones too), the invite link with its QR code, the CSV export. Live:
// the balances and the lists move as the group's events arrive (tally.realtime()).
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { CategorySelect, categoryLabel, useCategories } from './categories.js';
import { LiveInvites } from './invites.js';
import { t } from './messages.js';
import { formatDate, formatMoney } from './money.js';
import { RemindButton } from './notifications.js';
import { ExpenseFilters } from './search.js';
import {
  attempt,
  cached,
  describe,
  realtime,
  saveFile,
  say,
  store,
  tally,
  useStore,
  wrote,
} from './session.js';
import { GroupToolLinks } from './tools.js';
import { BalanceBars, Field, go, namesOf, QrCode } from './ui.js';

export function GroupScreen({ groupId }) {
  const { me, pending } = useStore();
  const [group, setGroup] = useState();
  const [balances, setBalances] = useState([]);
  const [expenses, setExpenses] = useState([]);
  const [nextExpenses, setNextExpenses] = useState();
  const [settlements, setSettlements] = useState([]);
  const queryRef = useRef({});
  const [invite, setInvite] = useState();
  // The screen draws once its first reads are in, not piece by piece (no layout shift as they land).
  const [loaded, setLoaded] = useState(false);
  const [categories] = useCategories(groupId);
  const [categoryId, setCategoryId] = useState(null);
  const categoryRef = useRef(null);
  // Original debts (simplifyDebts false) are not in the events' balances: read when they move.
  const simplifyRef = useRef(true);

  const loadExpenses = () => {
    const filter = categoryRef.current;
    const query = { ...queryRef.current, ...(filter ? { categoryId: filter } : {}) };
    const read = () => tally.expenses.list(groupId, { limit: 50, ...query });
    const filtered = Object.keys(query).length > 0;
    return (filtered ? read() : cached(`expenses.${groupId}`, read)).then((page) => {
      setExpenses(page.data);
      setNextExpenses(page.nextCursor);
    });
  };
  const loadSettlements = () =>
    cached(`settlements.${groupId}`, () => tally.settlements.list(groupId, { limit: 20 })).then((page) =>
      setSettlements(page.data),
    );
  const loadGroup = () =>
    cached(`group.${groupId}`, () => tally.groups.get(groupId)).then((g) => {
      simplifyRef.current = g.simplifyDebts !== false;
      setGroup(g);
    });
  const readBalances = () => tally.groups.balances(groupId).then((read) => setBalances(read.currencies));

  useEffect(() => {
    let subscription;
    let closed = false;
    // The activity feed follows the groups of the moment it is asked: this one may be new.
    realtime?.followActivity();
    Promise.all([
      loadGroup(),
      cached(`balances.${groupId}`, () => tally.groups.balances(groupId)),
      loadExpenses(),
      loadSettlements(),
    ])
      .then(([, read]) => {
        if (closed) return;
        setBalances(read.currencies);
        setLoaded(true);
        // Live from the balances just read: every later event once, in order.
        subscription = realtime?.subscribe(groupId, {
          afterSeq: read.asOfSeq,
          onBalances: (update) =>
            simplifyRef.current ? setBalances(update.currencies) : readBalances().catch(() => {}),
          onEvent: (event) => {
            const reload = /^(member|group)\./.test(event.type) ? loadGroup : undefined;
            if (reload) reload().catch(() => {});
            if (event.type.startsWith('expense.')) loadExpenses().catch(() => {});
            if (event.type.startsWith('settlement.')) loadSettlements().catch(() => {});
          },
          onEnded: () => {
            say(t('back'), true);
            go('#/');
          },
        });
      })
      .catch((error) => {
        setLoaded(true);
        say(describe(error), true);
      });
    return () => {
      closed = true;
      subscription?.unsubscribe();
    };
  }, [groupId]);

  // Keyed: Preact would otherwise reuse this section for the balances', which then "moves" (a shift).
  if (!group || !loaded) return html`<section key="loading"><p>${t('loading')}</p></section>`;
  const names = namesOf(group);
  // A group without records yet: everyone at zero in its currency.
  const shown = balances.length
    ? balances
    : [
        {
          currency: group.currency,
          members: group.members
            .filter((m) => m.status !== 'deleted')
            .map((m) => ({ userId: m.userId, net: 0 })),
          simplified: [],
        },
      ];
  const nameOf = (id) => names.get(id) ?? id;
  const writable = !group.archivedAt;
  const debtsOf = (c) => (group.simplifyDebts === false ? (c.original ?? c.simplified) : c.simplified);
  const waiting = tally.outbox
    .pending(groupId)
    .filter((entry) => entry.operation.type === 'expense.create')
    .map((entry) => entry.operation);
  void pending; // re-rendered as the outbox drains

  const settleUp = (transfer, currency) =>
    attempt(async () => {
      await tally.outbox.createSettlement({
        groupId,
        fromUserId: transfer.from,
        toUserId: transfer.to,
        amount: transfer.amount,
        currency,
      });
      wrote();
      say(t('settled', nameOf(transfer.from), nameOf(transfer.to), formatMoney(transfer.amount, currency)));
      loadSettlements().catch(() => {});
    });

  const filterBy = attempt(async (chosen) => {
    categoryRef.current = chosen;
    setCategoryId(chosen);
    await loadExpenses();
  });
  // Older ones, 50 at a time (a cursor goes with the filters it was made with, API.md §5.1).
  const moreExpenses = attempt(async () => {
    const filter = categoryRef.current;
    const page = await tally.expenses.list(groupId, {
      limit: 50,
      ...queryRef.current,
      ...(filter ? { categoryId: filter } : {}),
      cursor: nextExpenses,
    });
    setExpenses([...expenses, ...page.data]);
    setNextExpenses(page.nextCursor);
  });
  const search = (query) => {
    queryRef.current = query;
    return loadExpenses();
  };

  const addMember = attempt(async (event) => {
    const form = new FormData(event.target);
    const email = String(form.get('email') ?? '').trim();
    const name = String(form.get('name') ?? '').trim();
    const member = await tally.groups.addMember(
      groupId,
      name ? { name, ...(email ? { email } : {}) } : { email },
    );
    event.target.reset();
    say(t('memberAdded', member.name));
    await loadGroup();
  });

  const makeInvite = attempt(async (event) => {
    const expiresInDays = Number(new FormData(event.target).get('days') ?? 7);
    const made = await tally.invites.create(groupId, { expiresInDays });
    setInvite(`${window.location.origin}/#/join/${made.code}`);
  });

  const exportCsv = attempt(async () => {
    const csv = await tally.groups.exportCsv(groupId);
    const name = `${group.name.replace(/[^A-Za-z0-9_-]+/g, '-') || 'group'}.csv`;
    saveFile(`\uFEFF${csv}`, name, 'text/csv;charset=utf-8');
    say(t('downloaded', name));
  });

  return html`<h1 id="group-name">${group.name} <span class="muted">${group.currency}</span>
      ${!writable && html` <span class="badge archived">${t('archived')}</span>`}</h1>
    ${!writable && html`<p class="notice" id="archived-note">${t('archivedNote')}</p>`}
    <nav class="row group-links" aria-label=${t('groupNav')}>
      <a href=${`#/g/${groupId}/stats`}>${t('statistics')}</a>
      <a href=${`#/g/${groupId}/categories`}>${t('categories')}</a>
      <a href=${`#/g/${groupId}/recurring`}>${t('recurring')}</a>
      <a href=${`#/g/${groupId}/settings`}>${t('groupSettings')}</a>
    </nav>
    <${GroupToolLinks} groupId=${groupId} />
    <section aria-labelledby="balances-title" id="balances">
      <h2 id="balances-title">${t('balances')}</h2>
      ${shown.map(
        (c) => html`<div key=${c.currency} data-currency=${c.currency}>
          <${BalanceBars} currency=${c.currency} members=${c.members} names=${names} />
          ${
            debtsOf(c).length === 0
              ? html`<p class="muted">${t('allSettled')}</p>`
              : html`<ul class="plain" id="transfers" data-debts=${group.simplifyDebts === false ? 'original' : 'simplified'}>
                  ${debtsOf(c).map(
                    (s) => html`<li class="row" key=${`${s.from}-${s.to}`}>
                      <span class="grow">${t('owes', nameOf(s.from), nameOf(s.to), formatMoney(s.amount, c.currency))}</span>
                      ${writable && html`<button type="button" onClick=${settleUp(s, c.currency)}>${t('settleUp')}</button>`}
                      ${writable && s.to === me?.id && html`<${RemindButton} groupId=${groupId} userId=${s.from} name=${nameOf(s.from)} />`}
                    </li>`,
                  )}
                </ul>`
          }
        </div>`,
      )}
    </section>
    <section aria-labelledby="expenses-title">
      <div class="row">
        <h2 id="expenses-title" class="grow">${t('expenses')}</h2>
        ${writable && html`<a href=${`#/g/${groupId}/add`} id="add-expense">${t('addExpense')}</a>`}
      </div>
      <${ExpenseFilters} members=${group.members.filter((m) => m.status !== 'deleted')} onSearch=${search} />
      <div id="category-filter"><${CategorySelect} list=${categories} label=${t('filterCategory')} name="categoryId"
        value=${categoryId} none=${t('allCategories')} onChange=${filterBy} /></div>
      <ul class="plain" id="expense-list">
        ${waiting.map(
          (w) => html`<li key=${w.expenseId} class="row" data-pending="true">
            <span class="grow">${w.body.description} <em class="muted">${t('pendingWrite')}</em></span>
            <span class="amount">${formatMoney(w.body.amount, w.body.currency ?? group.currency)}</span>
          </li>`,
        )}
        ${expenses.map(
          (e) => html`<li key=${e.id} class="row">
            <span class="grow"><a href=${`#/g/${groupId}/e/${e.id}`}>${e.description}</a>${e.deletedAt && html` <em class="muted">${t('filters.deleted')}</em>`}
              <br /><span class="muted">${formatDate(e.occurredAt)} · ${t('paidBy', e.paidBy.map((p) => nameOf(p.userId)).join(', '))}${
                e.categoryId
                  ? html` · <span class="category">${categoryLabel(categories, e.categoryId)}</span>`
                  : ''
              }</span></span>
            <span class="amount">${formatMoney(e.amount, e.currency)}</span>
          </li>`,
        )}
      </ul>
      ${expenses.length === 0 && waiting.length === 0 && html`<p class="muted">${t('noExpenses')}</p>`}
      ${nextExpenses && html`<button type="button" id="more-expenses" onClick=${moreExpenses}>${t('filters.more')}</button>`}
      <button type="button" onClick=${exportCsv}>${t('exportCsv')}</button>
    </section>
    <section aria-labelledby="settlements-title">
      <h2 id="settlements-title">${t('settlements')}</h2>
      <ul class="plain" id="settlement-list">
        ${settlements.map(
          (s) => html`<li key=${s.id} class="row">
            <span class="grow">${t('paid', nameOf(s.fromUserId), nameOf(s.toUserId))}</span>
            <span class="amount">${formatMoney(s.amount, s.currency)}</span>
          </li>`,
        )}
      </ul>
    </section>
    <section aria-labelledby="members-title">
      <h2 id="members-title">${t('members')}</h2>
      <ul class="plain" id="member-list">
        ${group.members
          .filter((m) => m.status !== 'deleted')
          .map(
            (
              m,
            ) => html`<li key=${m.userId}>${m.name} ${m.userId === store.me?.id ? html`<span class="muted">${t('you')}</span>` : ''}
              ${m.status === 'pending' ? html`<span class="muted">(${t('pendingMember')})</span>` : ''}</li>`,
          )}
      </ul>
      <div hidden=${!writable}>
      <form id="member-form" onSubmit=${addMember}>
        <${Field} label=${t('addMember')} name="email" type="email" required autocomplete="off" />
        <button type="submit">${t('add')}</button>
      </form>
      <form id="pending-form" onSubmit=${addMember}>
        <${Field} label=${t('addPending')} name="name" required maxlength="100" autocomplete="off" />
        <${Field} label=${t('pendingEmail')} name="email" type="email" autocomplete="off" />
        <button type="submit">${t('add')}</button>
      </form>
      <h2>${t('invite')}</h2>
      ${
        invite
          ? html`<p><a href=${invite} id="invite-link">${invite}</a></p>
              <${QrCode} text=${invite} label=${t('inviteQr')} />
              ${
                navigator.share &&
                html`<button type="button" onClick=${() => navigator.share({ title: group.name, url: invite }).catch(() => {})}>
                  ${t('share')}
                </button>`
              }`
          : html`<form id="invite-form" class="row" onSubmit=${makeInvite}>
              <label>${t('inviteValidFor')} <select name="days">
                ${[1, 7, 30].map((days) => html`<option key=${days} value=${days} selected=${days === 7}>${t('days', days)}</option>`)}
              </select></label>
              <button type="submit" id="make-invite">${t('makeInvite')}</button>
            </form>`
      }
      <${LiveInvites} groupId=${groupId} made=${invite} />
      </div>
    </section>`;
}
