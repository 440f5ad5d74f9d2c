import { type CurrencyNets, convertBalances, minorUnitsOf, parseRate, type Rate } from '@tally/domain';
import { AppError, type FieldError, validationFailed } from '@tally/http-kit';
import type { GroupRates } from './group-rates';
import type { ProviderRates, RatesProvider } from './rates-provider';

/** One rate a conversion used: `rate` units of `currency` per one `base`, from `source`, of day `asOf`. */
export type UsedRate = { currency: string; base: string; rate: string; source: string; asOf: string };

/** The `converted` part of `GET /v1/groups/{groupId}/balances?in=…` (API.md §6). */
export type Converted = {
  currency: string;
  members: { userId: string; net: number }[];
  simplified: { from: string; to: string; amount: number }[];
  /** The original debts in `currency`, when the balances came with theirs (API.md §6). */
  original?: { from: string; to: string; amount: number }[];
  rates: UsedRate[];
};

const ONE: Rate = { numerator: 1n, denominator: 1n };
const divide = (a: Rate, b: Rate): Rate => ({
  numerator: a.numerator * b.denominator,
  denominator: a.denominator * b.numerator,
});

const noRate = (currencies: readonly string[], target: string): AppError =>
  new AppError(
    'rate_unavailable',
    422,
    `No exchange rate for ${currencies.join(', ')}: set the group’s rates (PUT /v1/groups/{groupId}/rates) to convert into ${target}.`,
    {
      errors: currencies.map((code) => ({
        path: code === target ? 'in' : `currencies.${code}`,
        message: `no exchange rate for ${code}`,
      })),
    },
  );

/**
 * The balances of a group converted into `target` (API.md §6, "Settling in one currency").
 *
 * Rates: every currency with a non-zero net (other than `target`) needs one, and so does `target`
 * unless nothing needs converting. They are taken in the terms of one pivot: the group's `base`
 * when the group has rates, else the provider's base. For each currency, the group's own rate wins
 * where it gives one (the base itself counts as given, at 1); the provider gives the rest, crossed
 * to the pivot through the provider's rate for the pivot (listed too). The provider is asked only
 * when the group's rates do not cover everything.
 *
 * @throws `422 rate_unavailable` naming every currency no source has a rate for (or that has no
 *   ISO 4217 minor unit); `503 unavailable` when the provider is needed and has no rates yet;
 *   `422 validation_failed` when a converted net would be beyond a safe integer
 */
export async function convertedBalances(
  currencies: readonly CurrencyNets[],
  target: string,
  groupRates: GroupRates,
  provider: RatesProvider | undefined,
): Promise<Converted> {
  const sources = currencies
    .filter((c) => c.currency !== target && c.members.some((m) => m.net !== 0))
    .map((c) => c.currency);
  const needed = sources.length > 0 ? [...sources, target] : [];
  const withoutUnits = [...sources, target].filter((code) => minorUnitsOf(code) === undefined);
  if (withoutUnits.length > 0) {
    throw new AppError(
      'rate_unavailable',
      422,
      `${withoutUnits.join(', ')} ${withoutUnits.length === 1 ? 'has' : 'have'} no minor unit in ISO 4217: amounts in it cannot be converted.`,
      {
        errors: withoutUnits.map((code) => ({
          path: code === target ? 'in' : `currencies.${code}`,
          message: `${code} has no ISO 4217 minor unit`,
        })),
      },
    );
  }

  const group = groupRates.base !== null ? groupRates : undefined;
  const pivot = group?.base ?? undefined;
  const rates = new Map<string, Rate>();
  const used: UsedRate[] = [];
  const fromProvider: string[] = [];
  for (const code of needed) {
    if (code === pivot) rates.set(code, ONE);
    else if (group && Object.hasOwn(group.rates, code)) {
      const rate = group.rates[code] as string;
      rates.set(code, parseRate(rate));
      used.push({
        currency: code,
        base: group.base as string,
        rate,
        source: 'group',
        asOf: group.asOf as string,
      });
    } else fromProvider.push(code);
  }

  if (fromProvider.length > 0) {
    if (!provider) throw noRate(fromProvider, target);
    const offered: ProviderRates = await provider.rates();
    const rateOf = (code: string): Rate | undefined => {
      if (code === offered.base) return ONE;
      const text = offered.rates.get(code);
      return text === undefined ? undefined : parseRate(text);
    };
    const link = pivot === undefined ? ONE : rateOf(pivot);
    const missing = link === undefined ? fromProvider : fromProvider.filter((code) => !rateOf(code));
    if (missing.length > 0) throw noRate(missing, target);
    /** Lists a rate the provider gave (its own base needs none: it is 1). */
    const listProviderRate = (code: string) => {
      const rate = offered.rates.get(code);
      if (rate !== undefined) {
        used.push({ currency: code, base: offered.base, rate, source: offered.source, asOf: offered.asOf });
      }
    };
    // In the pivot's terms: (units of code per provider base) / (units of pivot per provider base).
    for (const code of fromProvider) {
      rates.set(code, divide(rateOf(code) as Rate, link as Rate));
      listProviderRate(code);
    }
    // The link from the group's base to the provider's is a rate used too.
    if (pivot !== undefined) listProviderRate(pivot);
  }

  let result: ReturnType<typeof convertBalances>;
  try {
    result = convertBalances(currencies, target, rates);
  } catch (error) {
    const errors: FieldError[] = [{ path: 'in', message: (error as Error).message }];
    throw validationFailed(errors, `These balances cannot be expressed in ${target}.`);
  }
  used.sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
  return {
    currency: target,
    members: result.members,
    simplified: result.simplified,
    ...(result.original ? { original: result.original } : {}),
    rates: used,
  };
}
