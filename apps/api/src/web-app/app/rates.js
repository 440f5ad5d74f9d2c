// Settling in one currency (API.md §6): the group's balances converted into a currency (`?in=`), how
// they settle there and the rates used; and the group's own rates (any member replaces them whole).
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from './messages.js';
import { formatMoney } from './money.js';
import { attempt, describe, say, tally } from './session.js';
import { Field, namesOf } from './ui.js';

const CURRENCIES = Intl.supportedValuesOf('currency');

/** "USD 1.0823" or "USD=1.0823", one a line → { USD: '1.0823' } (a rate stays a string, never a float). */
function parseRates(text) {
  const rates = {};
  for (const line of text.split('\n')) {
    const [code, rate] = line.trim().split(/[\s=:]+/);
    if (code) rates[code.toUpperCase()] = rate ?? '';
  }
  return rates;
}
const ratesText = (rates) =>
  Object.entries(rates)
    .map(([code, rate]) => `${code} ${rate}`)
    .join('\n');

export function RatesScreen({ groupId }) {
  const [group, setGroup] = useState();
  const [own, setOwn] = useState();
  const [target, setTarget] = useState('');
  const [converted, setConverted] = useState();

  const convert = async (currency) => {
    setTarget(currency);
    setConverted(currency ? (await tally.groups.balances(groupId, { in: currency })).converted : undefined);
  };
  useEffect(() => {
    Promise.all([tally.groups.get(groupId), tally.groups.rates(groupId)])
      .then(([read, rates]) => {
        setGroup(read);
        setOwn(rates);
      })
      .catch((error) => say(describe(error), true));
  }, [groupId]);

  const save = attempt(async (event) => {
    const form = new FormData(event.target);
    const saved = await tally.groups.setRates(groupId, {
      base: String(form.get('base')).trim().toUpperCase(),
      rates: parseRates(String(form.get('rates'))),
      asOf: String(form.get('asOf')),
    });
    setOwn(saved);
    say(t('rates.saved'));
    if (target) await convert(target);
  });

  if (!group || !own) return html`<section><p>${t('loading')}</p></section>`;
  const names = namesOf(group);
  const nameOf = (id) => names.get(id) ?? id;
  return html`<h1>${t('rates.title', group.name)}</h1>
    <p><a href=${`#/g/${groupId}`}>${t('tools.backToGroup')}</a></p>
    <section aria-labelledby="converted-title">
      <h2 id="converted-title">${t('rates.settleIn')}</h2>
      <label>${t('rates.currency')}
        <select id="settle-in" value=${target} onChange=${attempt((event) => convert(event.target.value))}>
          <option value="">${t('rates.none')}</option>
          ${CURRENCIES.map((code) => html`<option key=${code} value=${code}>${code}</option>`)}
        </select></label>
      ${
        converted &&
        html`<div id="converted" data-currency=${converted.currency}>
          <ul class="plain">
            ${converted.members.map(
              (m) => html`<li key=${m.userId} class="row" data-net=${m.net}>
                <span class="grow">${nameOf(m.userId)}</span><span class="amount">${formatMoney(m.net, converted.currency)}</span>
              </li>`,
            )}
          </ul>
          <ul class="plain" id="converted-transfers" data-debts=${group.simplifyDebts === false ? 'original' : 'simplified'}>
            ${(
              group.simplifyDebts === false
                ? (converted.original ?? converted.simplified)
                : converted.simplified
            ).map(
              (s) =>
                html`<li key=${`${s.from}-${s.to}`}>${t('owes', nameOf(s.from), nameOf(s.to), formatMoney(s.amount, converted.currency))}</li>`,
            )}
          </ul>
          <p class="muted" id="converted-rates">${
            converted.rates.length === 0
              ? t('rates.noneNeeded')
              : converted.rates.map((r) => t('rates.used', r)).join('; ')
          }</p>
        </div>`
      }
    </section>
    <section aria-labelledby="own-rates-title">
      <h2 id="own-rates-title">${t('rates.own')}</h2>
      <p class="muted">${t('rates.ownHelp')}</p>
      <form id="rates-form" onSubmit=${save}>
        <${Field} label=${t('rates.base')} name="base" value=${own.base ?? group.currency} required pattern="[A-Za-z]{3}" maxlength="3" />
        <label>${t('rates.lines')}
          <textarea name="rates" rows="4" spellcheck="false" value=${ratesText(own.rates)}></textarea></label>
        <${Field} label=${t('rates.asOf')} name="asOf" type="date" required value=${own.asOf ?? new Date().toISOString().slice(0, 10)} />
        <button class="primary" type="submit">${t('save')}</button>
      </form>
    </section>`;
}
