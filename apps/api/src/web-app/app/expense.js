// Adding or editing an expense (API.md §4): any split type (items: items.js), one or several
// payers, a category, a negative amount (income); its receipt, duplicating it, and its comments
// (§5.2) with its history (§15). Saves go through the outbox: offline, they wait on the device.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { etagOf } from '../../../../../packages/client/src/index';
import { CategorySelect, useCategories } from './categories.js';
import { Timeline } from './history.js';
import { ItemsEditor, itemsSplitOf, itemsStateOf, newItem } from './items.js';
import { t } from './messages.js';
import { toMajorText, toMinor } from './money.js';
import { ReceiptPanel } from './receipt.js';
import { attempt, cached, describe, say, store, tally, wrote } from './session.js';
import { go, namesOf } from './ui.js';

const SPLIT_TYPES = ['equal', 'exact', 'shares', 'percent'];
const ALL_SPLIT_TYPES = [...SPLIT_TYPES, 'items'];
const today = () => new Date().toLocaleDateString('en-CA'); // YYYY-MM-DD in local time

/** The form's state from an expense (or a new one, split equally between everyone, paid by me). */
function stateOf(expense, group, meId) {
  const active = group.members.filter((m) => m.status !== 'deleted');
  if (!expense) {
    return {
      description: '',
      amount: '',
      date: today(),
      payers: Object.fromEntries([[meId, '']]),
      type: 'equal',
      parts: Object.fromEntries(active.map((m) => [m.userId, '1'])),
      categoryId: null,
      items: [newItem(active)],
      tax: '',
      tip: '',
    };
  }
  const { currency, split } = expense;
  const partOf = (entry) => {
    if (split.type === 'equal') return [entry, '1'];
    if (split.type === 'exact') return [entry.userId, toMajorText(entry.amount, currency)];
    if (split.type === 'shares') return [entry.userId, String(entry.shares)];
    return [entry.userId, String(entry.percent)];
  };
  return {
    description: expense.description,
    amount: toMajorText(expense.amount, currency),
    date: expense.occurredAt.slice(0, 10),
    payers: Object.fromEntries(expense.paidBy.map((p) => [p.userId, toMajorText(p.amount, currency)])),
    categoryId: expense.categoryId ?? null,
    ...(split.type === 'items'
      ? itemsStateOf(split, currency)
      : { items: [newItem(active)], tax: '', tip: '' }),
    type: ALL_SPLIT_TYPES.includes(split.type) ? split.type : 'exact',
    parts: Object.fromEntries(
      SPLIT_TYPES.includes(split.type)
        ? split.between.map(partOf)
        : split.type === 'items'
          ? active.map((m) => [m.userId, '1'])
          : expense.shares.map((s) => [s.userId, toMajorText(s.owed, currency)]),
    ),
  };
}

/** The request body of the form's state; throws a message a person can act on. */
function bodyOf(state, groupId, currency) {
  const amount = toMinor(state.amount, currency);
  // Negative: income or a reimbursement (API.md §4); never 0.
  if (amount === undefined || amount === 0) throw new Error(`${t('amount')}: ?`);
  const payerIds = Object.keys(state.payers);
  if (payerIds.length === 0) throw new Error(`${t('payers')}: ?`);
  const paidBy =
    payerIds.length === 1
      ? payerIds[0]
      : payerIds.map((userId) => ({ userId, amount: toMinor(state.payers[userId] || '0', currency) ?? 0 }));
  const common = {
    groupId,
    description: state.description.trim(),
    amount,
    currency,
    occurredAt: new Date(`${state.date}T12:00:00`).toISOString(),
    paidBy,
    categoryId: state.categoryId,
  };
  if (state.type === 'items') {
    const { total, split } = itemsSplitOf(state, currency);
    if (total !== amount) throw new Error(t('itemsSum'));
    return { ...common, split };
  }
  const chosen = Object.entries(state.parts).filter(([, value]) => value !== '' && Number(value) !== 0);
  const between =
    state.type === 'equal'
      ? chosen.map(([userId]) => userId)
      : chosen.map(([userId, value]) => {
          if (state.type === 'exact') return { userId, amount: toMinor(value, currency) ?? 0 };
          if (state.type === 'shares') return { userId, shares: Number.parseInt(value, 10) };
          return { userId, percent: Number(value) };
        });
  if (between.length === 0) throw new Error(t('nobody'));
  const sum = (values) => values.reduce((a, b) => a + b, 0);
  if (Array.isArray(paidBy) && sum(paidBy.map((p) => p.amount)) !== amount) throw new Error(t('payersSum'));
  if (state.type === 'exact' && sum(between.map((b) => b.amount)) !== amount) throw new Error(t('splitSum'));
  // Percents have at most 2 decimals: compared in hundredths, exactly.
  if (state.type === 'percent' && sum(between.map((b) => Math.round(b.percent * 100))) !== 10000) {
    throw new Error(t('percentSum'));
  }
  return { ...common, split: { type: state.type, between } };
}

export function ExpenseScreen({ groupId, expenseId }) {
  const [group, setGroup] = useState();
  const [categories] = useCategories(groupId);
  const [expense, setExpense] = useState();
  const [state, setState] = useState();
  const [comments, setComments] = useState([]);

  const loadComments = async () => {
    const list = [];
    for await (const c of tally.comments.listAll({ expenseId }, { limit: 100 })) list.push(c);
    setComments(list);
  };
  useEffect(() => {
    Promise.all([
      cached(`group.${groupId}`, () => tally.groups.get(groupId)),
      expenseId ? tally.expenses.get(expenseId) : undefined,
    ])
      .then(([g, e]) => {
        setGroup(g);
        setExpense(e);
        setState(stateOf(e, g, store.me?.id));
        if (expenseId) return loadComments();
      })
      .catch((error) => say(describe(error), true));
  }, [groupId, expenseId]);

  if (!group || !state) return html`<section><p>${t('loading')}</p></section>`;
  const currency = expense?.currency ?? group.currency;
  const names = namesOf(group);
  const members = group.members.filter((m) => m.status !== 'deleted');
  const set = (patch) => setState({ ...state, ...patch });

  const save = attempt(async (event) => {
    const body = bodyOf(state, groupId, currency);
    if (expense) await tally.outbox.replaceExpense(expense.id, body, { ifMatch: etagOf(expense) });
    else await tally.outbox.createExpense(body);
    wrote();
    say(navigator.onLine ? t('saved') : t('savedOffline'));
    event.target.reset();
    go(`#/g/${groupId}`);
  });
  const remove = attempt(async () => {
    if (!window.confirm(t('deleteConfirm'))) return;
    await tally.outbox.deleteExpense(expense, { ifMatch: etagOf(expense) });
    wrote();
    say(t('deleted'));
    go(`#/g/${groupId}`);
  });
  const duplicate = attempt(async () => {
    const copy = await tally.expenses.duplicate(expense.id);
    say(t('duplicated', copy.description));
    go(`#/g/${groupId}/e/${copy.id}`);
  });
  const addComment = attempt(async (event) => {
    await tally.comments.create({ expenseId }, String(new FormData(event.target).get('text')));
    event.target.reset();
    await loadComments();
  });

  const togglePayer = (userId, on) => {
    const payers = { ...state.payers };
    if (on) payers[userId] = '';
    else delete payers[userId];
    set({ payers });
  };
  const setPart = (userId, value) => set({ parts: { ...state.parts, [userId]: value } });
  const manyPayers = Object.keys(state.payers).length > 1;
  const writable = !group.archivedAt;
  const amountPattern = '-?\\d+([.,]\\d+)?';

  return html`<section>
      <h1>${expense ? t('editExpense') : t('addExpense')} <span class="muted">${group.name}</span></h1>
      <form id="expense-form" onSubmit=${save}>
        <label>${t('description')}
          <input name="description" required maxlength="200" value=${state.description}
            onInput=${(e) => set({ description: e.currentTarget.value })} /></label>
        <label>${t('amount')} (${currency})
          <input name="amount" required inputmode="decimal" pattern=${amountPattern} value=${state.amount}
            readonly=${state.type === 'items'} aria-describedby="amount-help"
            onInput=${(e) => set({ amount: e.currentTarget.value })} /></label>
        <p class="muted" id="amount-help">${state.type === 'items' ? t('itemsAmountHelp') : t('negativeHelp')}</p>
        <${CategorySelect} list=${categories} label=${t('category')} name="categoryId" value=${state.categoryId}
          onChange=${(categoryId) => set({ categoryId })} />
        <label>${t('date')}
          <input name="date" type="date" required value=${state.date} onInput=${(e) => set({ date: e.currentTarget.value })} /></label>
        <fieldset id="payers">
          <legend>${t('payers')}</legend>
          ${members.map(
            (m) => html`<div class="row" key=${m.userId}>
              <label class="inline grow"><input type="checkbox" name="payer" value=${m.userId}
                checked=${m.userId in state.payers} onChange=${(e) => togglePayer(m.userId, e.currentTarget.checked)} /> ${m.name}</label>
              ${
                manyPayers &&
                m.userId in state.payers &&
                html`<label class="inline">${t('payerAmount', m.name)}
                  <input inputmode="decimal" size="8" required value=${state.payers[m.userId]}
                    onInput=${(e) => set({ payers: { ...state.payers, [m.userId]: e.currentTarget.value } })} /></label>`
              }
            </div>`,
          )}
        </fieldset>
        <fieldset id="split">
          <legend>${t('split')}</legend>
          <div class="row">
            ${ALL_SPLIT_TYPES.map(
              (
                type,
              ) => html`<label class="inline"><input type="radio" name="type" value=${type} checked=${state.type === type}
                onChange=${() => set({ type, parts: Object.fromEntries(members.map((m) => [m.userId, type === 'equal' || type === 'shares' ? '1' : ''])) })} />
                ${t(`splitTypes.${type}`)}</label>`,
            )}
          </div>
          ${state.type === 'items' && html`<${ItemsEditor} state=${state} set=${set} members=${members} currency=${currency} names=${names} />`}
          ${
            state.type !== 'items' &&
            members.map((m) =>
              state.type === 'equal'
                ? html`<label class="inline" key=${m.userId}><input type="checkbox" name="between" value=${m.userId}
                  checked=${Boolean(state.parts[m.userId])} onChange=${(e) => setPart(m.userId, e.currentTarget.checked ? '1' : '')} /> ${names.get(m.userId)}</label>`
                : html`<label key=${m.userId}>${t('shareOf', m.name)} (${t(`splitTypes.${state.type}`)})
                  <input name=${`part-${m.userId}`} inputmode=${state.type === 'shares' ? 'numeric' : 'decimal'}
                    value=${state.parts[m.userId] ?? ''} onInput=${(e) => setPart(m.userId, e.currentTarget.value)} /></label>`,
            )
          }
        </fieldset>
        <div class="row">
          <button class="primary" type="submit" disabled=${!writable}>${t('save')}</button>
          <a href=${`#/g/${groupId}`}>${t('cancel')}</a>
          ${expense && writable && html`<button type="button" onClick=${remove}>${t('delete')}</button>`}
          ${expense && writable && html`<button type="button" id="duplicate" onClick=${duplicate}>${t('duplicate')}</button>`}
        </div>
      </form>
    </section>
    ${expense && html`<${ReceiptPanel} expenseId=${expense.id} writable=${writable} />`}
    ${
      expense &&
      html`<section aria-labelledby="comments-title">
        <h2 id="comments-title">${t('comments')}</h2>
        ${comments.length === 0 && html`<p class="muted">${t('noComments')}</p>`}
        <${Timeline} expenseId=${expense.id} version=${expense.version} comments=${comments}
          nameOf=${(id) => names.get(id) ?? id} />
        <form id="comment-form" onSubmit=${addComment} hidden=${!writable}>
          <label>${t('comment')} <textarea name="text" required rows="2" maxlength="2000"></textarea></label>
          <button type="submit">${t('comment')}</button>
        </form>
      </section>`
    }`;
}
