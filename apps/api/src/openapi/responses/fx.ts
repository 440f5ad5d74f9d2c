import type { JsonSchema } from '../joi-to-json-schema';
import { closed, currency, id, ref, timestamp } from './common';

const decimalRate: JsonSchema = {
  type: 'string',
  pattern: '^(0|[1-9][0-9]*)(\\.[0-9]+)?$',
  description:
    'A positive decimal of at most 12 significant digits and 20 decimals, as a string (never a float)',
  examples: ['1.0823'],
};
const day: JsonSchema = {
  type: 'string',
  format: 'date',
  description: 'A day, `YYYY-MM-DD`',
  examples: ['2026-11-25'],
};

const GroupRates: JsonSchema = closed(
  {
    groupId: id('grp', 'Group'),
    base: { anyOf: [currency, { type: 'null' }] },
    rates: { type: 'object', additionalProperties: decimalRate, description: 'ISO 4217 code → rate' },
    asOf: { anyOf: [day, { type: 'null' }] },
    updatedBy: { anyOf: [id('usr', 'User'), { type: 'null' }] },
    updatedAt: { anyOf: [timestamp, { type: 'null' }] },
  },
  'A group’s own exchange rates: `rates[c]` units of currency `c` per one `base`. A group that never ' +
    'set any has `base`, `asOf`, `updatedBy` and `updatedAt` null and `rates` empty.',
);
const UsedRate: JsonSchema = closed(
  {
    currency,
    base: currency,
    rate: decimalRate,
    source: {
      type: 'string',
      description: '`group` (the group’s own rates) or the provider (`ecb`)',
      examples: ['ecb'],
    },
    asOf: day,
  },
  'A rate a conversion used: `rate` units of `currency` per one `base`, from `source`, of the day `asOf`',
);
const ConvertedBalances: JsonSchema = closed(
  {
    currency,
    members: {
      type: 'array',
      description:
        'Every member of any listed currency, with their converted net in `currency`’s minor units; ' +
        'the nets add up to exactly 0, each within one minor unit of its exact value',
      items: ref('MemberNet'),
    },
    simplified: {
      type: 'array',
      description:
        'Transfers in `currency` that settle the converted nets exactly, at most (non-zero nets − 1)',
      items: ref('Transfer'),
    },
    original: {
      type: 'array',
      description:
        'The original debts in `currency`: per pair of people, their debts of every currency converted ' +
        'exactly, netted and rounded down, plus the whole units rounding leaves over, settled as ' +
        '`simplified` settles; they add up to the converted nets exactly. Sorted by `from`, then `to`',
      items: ref('Transfer'),
    },
    rates: {
      type: 'array',
      description:
        'The rates used, by currency (empty when nothing needed converting); a cross rate is the ' +
        'quotient of two listed rates of the same `base`',
      items: ref('UsedRate'),
    },
  },
  'Present when the request asked for `in`: every member’s nets of all currencies converted into ' +
    '`currency` at the `rates` listed, rounded once (API.md §6, "Settling in one currency")',
);

/** Currency conversion (fx/). */
export const fxSchemas: Record<string, JsonSchema> = { GroupRates, UsedRate, ConvertedBalances };
