import { parseRate } from '@tally/domain';
import type { ProviderRates } from './rates-provider';

const DAY = /<Cube\s+time\s*=\s*["'](\d{4}-\d{2}-\d{2})["']\s*>/g;
const RATE = /<Cube\s+currency\s*=\s*["']([A-Z]{3})["']\s+rate\s*=\s*["']([^"']*)["']\s*\/>/g;

/**
 * Reads the ECB's euro foreign exchange reference rates (`eurofxref-daily.xml`): a
 * `gesmes:Envelope` whose `<Cube time="YYYY-MM-DD">` holds one `<Cube currency="USD" rate="1.0823"/>`
 * per currency, each rate being units of that currency per one euro. The format is fixed and
 * machine-written, so it is scanned with two patterns rather than with an XML library (no new
 * dependency). Only the first (newest) day is read, should a document hold several.
 *
 * @throws Error when the body is not such a document: no envelope, no day, no rate, or a rate that
 *   is not a positive decimal (a truncated or altered body never replaces good rates)
 */
export function parseEcbRates(xml: string): ProviderRates {
  if (!xml.includes('gesmes:Envelope') || !xml.includes('</gesmes:Envelope>')) {
    throw new Error('not an ECB reference-rates document (no complete gesmes:Envelope)');
  }
  const days = [...xml.matchAll(DAY)];
  const first = days[0];
  if (!first) throw new Error('the ECB document has no <Cube time="…"> day');
  const asOf = first[1] as string;
  if (
    Number.isNaN(Date.parse(`${asOf}T00:00:00Z`)) ||
    new Date(`${asOf}T00:00:00Z`).toISOString().slice(0, 10) !== asOf
  ) {
    throw new Error(`the ECB document's day ${asOf} is not a date`);
  }
  const end = days[1]?.index ?? xml.length;
  const rates = new Map<string, string>();
  for (const match of xml.slice(first.index, end).matchAll(RATE)) {
    const [, currency, rate] = match as unknown as [string, string, string];
    try {
      parseRate(rate);
    } catch (error) {
      throw new Error(`the ECB rate of ${currency} "${rate}" ${(error as Error).message}`);
    }
    rates.set(currency, rate);
  }
  if (rates.size === 0) throw new Error('the ECB document has no rate');
  return { source: 'ecb', base: 'EUR', asOf, rates };
}
