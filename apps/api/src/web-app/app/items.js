// The itemized split of the expense form (API.md §4, `split.type: "items"`): items with an amount
// and the members who share each, tax and tip; each member's share is shown before saving, computed
// by the same rules as the server (packages/domain's computeShares), so what is shown is what is saved.
import { html } from 'htm/preact';
import { computeShares } from '../../../../../packages/domain/src/compute-shares';
import { t } from './messages.js';
import { formatMoney, toMajorText, toMinor } from './money.js';

const minorOr0 = (text, currency) => (text ? (toMinor(text, currency) ?? Number.NaN) : 0);

/** A new item shared by everyone. */
export const newItem = (members) => ({
  description: '',
  amount: '',
  between: Object.fromEntries(members.map((m) => [m.userId, true])),
});

/** The form's item state of an itemized split (editing an expense). */
export function itemsStateOf(split, currency) {
  return {
    items: split.items.map((item) => ({
      description: item.description ?? '',
      amount: toMajorText(item.amount, currency),
      between: Object.fromEntries(item.between.map((b) => [typeof b === 'string' ? b : b.userId, true])),
    })),
    tax: split.tax ? toMajorText(split.tax, currency) : '',
    tip: split.tip ? toMajorText(split.tip, currency) : '',
  };
}

/** The split and its total (items + tax + tip) from the form's state; NaN total when a figure is not one. */
export function itemsSplitOf(state, currency) {
  const items = state.items.map((item) => ({
    ...(item.description.trim() ? { description: item.description.trim() } : {}),
    amount: minorOr0(item.amount, currency),
    between: Object.keys(item.between).filter((id) => item.between[id]),
  }));
  const tax = minorOr0(state.tax, currency);
  const tip = minorOr0(state.tip, currency);
  const total = items.reduce((sum, item) => sum + item.amount, 0) + tax + tip;
  return { total, split: { type: 'items', items, ...(tax ? { tax } : {}), ...(tip ? { tip } : {}) } };
}

/** Each member's share of the state's split, or undefined while it is not a valid one. */
function previewOf(state, currency) {
  const { total, split } = itemsSplitOf(state, currency);
  if (!Number.isFinite(total) || total <= 0) return undefined;
  try {
    return computeShares(total, split);
  } catch {
    return undefined;
  }
}

/** The items, tax and tip fields, and the shares they make. `set` patches the form's state. */
export function ItemsEditor({ state, set, members, currency, names }) {
  const setItems = (items) => {
    const next = { ...state, items };
    const { total } = itemsSplitOf(next, currency);
    set({ items, ...(Number.isFinite(total) ? { amount: toMajorText(total, currency) } : {}) });
  };
  const setExtra = (field, value) => {
    const { total } = itemsSplitOf({ ...state, [field]: value }, currency);
    set({ [field]: value, ...(Number.isFinite(total) ? { amount: toMajorText(total, currency) } : {}) });
  };
  const patchItem = (i, patch) =>
    setItems(state.items.map((item, j) => (j === i ? { ...item, ...patch } : item)));
  const shares = previewOf(state, currency);
  return html`<div id="items">
    ${state.items.map(
      (item, i) => html`<fieldset class="item" key=${i}>
        <legend>${t('itemN', i + 1)}</legend>
        <label>${t('itemDescription', i + 1)} <input maxlength="200" value=${item.description}
          onInput=${(e) => patchItem(i, { description: e.currentTarget.value })} /></label>
        <label>${t('itemAmount', i + 1)} <input inputmode="decimal" value=${item.amount}
          onInput=${(e) => patchItem(i, { amount: e.currentTarget.value })} /></label>
        <div class="row">
          ${members.map(
            (
              m,
            ) => html`<label class="inline" key=${m.userId}><input type="checkbox" checked=${Boolean(item.between[m.userId])}
              aria-label=${t('itemSharedBy', i + 1, m.name)}
              onChange=${(e) => patchItem(i, { between: { ...item.between, [m.userId]: e.currentTarget.checked } })} /> ${m.name}</label>`,
          )}
        </div>
        <button type="button" onClick=${() => setItems(state.items.filter((_, j) => j !== i))}>${t('removeItem', i + 1)}</button>
      </fieldset>`,
    )}
    <button type="button" id="add-item" onClick=${() => setItems([...state.items, newItem(members)])}>${t('addItem')}</button>
    <label>${t('tax')} <input name="tax" inputmode="decimal" value=${state.tax} onInput=${(e) => setExtra('tax', e.currentTarget.value)} /></label>
    <label>${t('tip')} <input name="tip" inputmode="decimal" value=${state.tip} onInput=${(e) => setExtra('tip', e.currentTarget.value)} /></label>
    <h3>${t('itemShares')}</h3>
    ${
      shares
        ? html`<ul class="plain" id="item-shares">
            ${shares.map(
              (
                s,
              ) => html`<li key=${s.userId} class="row"><span class="grow">${names.get(s.userId) ?? s.userId}</span>
              <span class="amount">${formatMoney(s.owed, currency)}</span></li>`,
            )}
          </ul>`
        : html`<p class="muted" id="item-shares">${t('itemsIncomplete')}</p>`
    }
  </div>`;
}
