// Settling in one currency (API.md §6): the balances converted, and the group's own rates.
import { tally } from './client.js';
import { $, element, handle, say } from './dom.js';
import { nameOf, open } from './groups.js';
import { formatMoney } from './money.js';

/** The currency the balances are also shown converted into; '' for none. */
export let settleIn = '';

$('settle-in').append(
  ...Intl.supportedValuesOf('currency').map((code) => element('option', code, { value: code })),
);

export async function showConverted() {
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

export function fillRatesForm(rates) {
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
