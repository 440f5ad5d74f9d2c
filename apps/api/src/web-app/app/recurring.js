// A group's recurring expenses (API.md §6a): scheduled (split equally between the chosen members,
// paid by me), listed with their next date, stopped (past occurrences stay).
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from './messages.js';
import { formatMoney, toMinor } from './money.js';
import { attempt, cached, describe, say, store, tally } from './session.js';
import { Field } from './ui.js';

const EVERY = ['week', '2 weeks', 'month', 'year'];
const today = () => new Date().toLocaleDateString('en-CA');

export function RecurringScreen({ groupId }) {
  const [group, setGroup] = useState();
  const [list, setList] = useState();
  const load = () => tally.recurring.list(groupId, { limit: 100 }).then((page) => setList(page.data));
  useEffect(() => {
    Promise.all([cached(`group.${groupId}`, () => tally.groups.get(groupId)).then(setGroup), load()]).catch(
      (error) => say(describe(error), true),
    );
  }, [groupId]);

  if (!group || !list) return html`<section><p>${t('loading')}</p></section>`;
  const members = group.members.filter((m) => m.status !== 'deleted');

  const create = attempt(async (event) => {
    const form = new FormData(event.target);
    const amount = toMinor(String(form.get('amount')), group.currency);
    if (amount === undefined || amount <= 0) throw new Error(`${t('amount')}: ?`);
    const between = form.getAll('between').map(String);
    if (between.length === 0) throw new Error(t('nobody'));
    const made = await tally.recurring.create(groupId, {
      expense: {
        description: String(form.get('description')).trim(),
        amount,
        paidBy: store.me.id,
        split: { type: 'equal', between },
      },
      schedule: {
        every: String(form.get('every')),
        startsOn: String(form.get('startsOn')),
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
    });
    event.target.reset();
    say(t('scheduled', made.expense.description, made.nextOccurrence));
    await load();
  });
  const stop = (r) =>
    attempt(async () => {
      await tally.recurring.delete(r.id);
      say(t('stopped', r.expense.description));
      await load();
    });

  return html`<h1>${t('recurring')} <span class="muted">${group.name}</span></h1>
    <p><a href=${`#/g/${groupId}`}>${t('backToGroup')}</a></p>
    <section aria-labelledby="recurring-list-title">
      <h2 id="recurring-list-title">${t('schedules')}</h2>
      ${list.length === 0 && html`<p class="muted">${t('noRecurring')}</p>`}
      <ul class="plain" id="recurring-list">
        ${list.map(
          (r) => html`<li key=${r.id} class="row" data-recurring=${r.id}>
            <span class="grow">${r.expense.description} · ${formatMoney(r.expense.amount, r.expense.currency ?? group.currency)}
              <br /><span class="muted">${t('every', t(`everyOf.${r.schedule.every}`), r.schedule.startsOn)} ·
              ${r.nextOccurrence ? t('nextOn', r.nextOccurrence) : t('over')}</span></span>
            ${r.nextOccurrence && !group.archivedAt && html`<button type="button" onClick=${stop(r)}>${t('stop', r.expense.description)}</button>`}
          </li>`,
        )}
      </ul>
    </section>
    ${
      !group.archivedAt &&
      html`<section aria-labelledby="recurring-new-title">
        <h2 id="recurring-new-title">${t('newRecurring')}</h2>
        <form id="recurring-form" onSubmit=${create}>
          <${Field} label=${t('description')} name="description" required maxlength="200" />
          <${Field} label=${`${t('amount')} (${group.currency})`} name="amount" required inputmode="decimal" />
          <label>${t('repeats')} <select name="every">${EVERY.map((e) => html`<option key=${e} value=${e}>${t(`everyOf.${e}`)}</option>`)}</select></label>
          <${Field} label=${t('startsOn')} name="startsOn" type="date" required defaultValue=${today()} />
          <fieldset><legend>${t('splitEqually')}</legend>
            ${members.map((m) => html`<label class="inline" key=${m.userId}><input type="checkbox" name="between" value=${m.userId} defaultChecked /> ${m.name}</label>`)}
          </fieldset>
          <button class="primary" type="submit">${t('schedule')}</button>
        </form>
      </section>`
    }`;
}
