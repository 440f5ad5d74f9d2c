// Searching and filtering a group's expenses (API.md §5.1): words, who paid, who is involved, a date
// range, the deleted ones too. The form gives the list's query; empty fields filter nothing (the API refuses empty values).
import { html } from 'htm/preact';
import { t } from './messages.js';
import { attempt } from './session.js';

/** The day's start in the reader's time zone, as the API's timestamp; `to` is the next day's start. */
const dayStart = (day, plusDays = 0) => {
  const date = new Date(`${day}T00:00:00`);
  date.setDate(date.getDate() + plusDays);
  return date.toISOString();
};

/** The query of the filter form's fields. */
function queryOf(form) {
  const get = (name) => String(form.get(name) ?? '').trim();
  const query = {};
  if (get('q')) query.q = get('q');
  if (get('paidBy')) query.paidBy = get('paidBy');
  if (get('involves')) query.involves = get('involves');
  if (get('from')) query.from = dayStart(get('from'));
  if (get('to')) query.to = dayStart(get('to'), 1);
  if (form.get('includeDeleted')) query.includeDeleted = true;
  return query;
}

/** The search and filter form of the expenses; `onSearch(query)` with the chosen filters. */
export function ExpenseFilters({ members, onSearch }) {
  const submit = attempt((event) => onSearch(queryOf(new FormData(event.target))));
  const clear = attempt((event) => {
    event.target.form.reset();
    return onSearch({});
  });
  const people = (name, label) => html`<label>${label}
    <select name=${name}>
      <option value="">${t('filters.anyone')}</option>
      ${members.map((m) => html`<option key=${m.userId} value=${m.userId}>${m.name}</option>`)}
    </select></label>`;
  return html`<form role="search" id="search-form" onSubmit=${submit}>
    <div class="row">
      <label class="grow">${t('search')} <input name="q" type="search" maxlength="200" /></label>
      <button type="submit">${t('searchButton')}</button>
    </div>
    <details id="filters">
      <summary>${t('filters.filters')}</summary>
      ${people('paidBy', t('filters.paidBy'))}
      ${people('involves', t('filters.involves'))}
      <label>${t('filters.from')} <input name="from" type="date" /></label>
      <label>${t('filters.to')} <input name="to" type="date" /></label>
      <label class="inline"><input name="includeDeleted" type="checkbox" /> ${t('filters.withDeleted')}</label>
      <button type="button" onClick=${clear}>${t('filters.clear')}</button>
    </details>
  </form>`;
}
