import {
  allocateLargestRemainder,
  CURRENCIES_WITH_MINOR_UNITS,
  clipCodePoints,
  MAX_AMOUNT,
  minorUnitsOf,
} from '@tally/domain';

/**
 * A Splitwise CSV export (API.md §6b), read without holding more than one record at a time: the
 * file is the request's string; records are produced one by one from it (RFC 4180: quoted fields,
 * `""` inside quotes, CRLF or LF line ends).
 *
 * Two kinds of problems: a file that is not a Splitwise export at all (broken quoting, a record
 * with the wrong number of fields, a missing header) is `MalformedFile`, refused whole with the
 * line; a well-formed row whose content cannot be imported (a date that does not parse, nets that
 * do not add up) is refused alone, with a reason, and the import goes on.
 */

/** The file is not a Splitwise export: answered `422 malformed_file` naming `line`, nothing written. */
export class MalformedFile extends Error {
  override name = 'MalformedFile';
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`Line ${line}: ${reason}`);
  }
}

/** One CSV record and the 1-based line it starts on. */
export type CsvRecord = { line: number; fields: string[] };

/** The records of `text`, in order. A blank line is a record of one empty field. */
export function* csvRecords(text: string): Generator<CsvRecord> {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a byte-order mark, as spreadsheet tools write
  let line = 1;
  const n = text.length;
  while (i < n) {
    const start = line;
    const fields: string[] = [];
    for (;;) {
      let value = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= n) throw new MalformedFile(start, 'a quoted field is never closed');
          const c = text[i] as string;
          if (c === '"') {
            if (text[i + 1] === '"') {
              value += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === '\n') line++;
          value += c;
          i++;
        }
        const after = text[i];
        if (i < n && after !== ',' && after !== '\n' && after !== '\r') {
          throw new MalformedFile(line, 'text after the closing quote of a field');
        }
      } else {
        const from = i;
        while (i < n && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') {
          if (text[i] === '"') throw new MalformedFile(line, 'a quote inside an unquoted field');
          i++;
        }
        value = text.slice(from, i);
      }
      fields.push(value);
      if (i < n && text[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    line++;
    yield { line: start, fields };
  }
}

const FIXED = ['Date', 'Description', 'Category', 'Cost', 'Currency'] as const;
const TOTAL_DESCRIPTION = 'total balance';
const PAYMENT_CATEGORY = 'payment';
const CURRENCIES = new Set(CURRENCIES_WITH_MINOR_UNITS);

/** What the whole file holds, once checked: its person columns and its rows. */
export type SplitwiseFile = {
  /** The person columns, in order (the header's names after `Currency`). */
  people: string[];
  /** Expense and payment rows (neither blank lines nor the total row). */
  rows: number;
  /** The line of the "Total balance" row, if the file has one. */
  totalLine: number | undefined;
  /**
   * The total row's refusal, decided from the file alone: its nets differ from the sum of the rows
   * that are imported (in its currency).
   */
  totalMismatch: string | undefined;
};

/** A row as imported: an expense, a settlement, a row refused with its reason, or not a row. */
export type SplitwiseRow =
  | {
      kind: 'expense';
      line: number;
      description: string;
      category: string | null;
      occurredAt: string;
      currency: string;
      amount: number;
      /** Person column index → net, minor units; zero nets left out. */
      nets: Map<number, number>;
      /** Person column index → paid and owed (see `deriveExpense`). */
      paid: Map<number, number>;
      owed: Map<number, number>;
    }
  | {
      kind: 'settlement';
      line: number;
      description: string;
      occurredAt: string;
      currency: string;
      amount: number;
      /** Column of the person with the positive net (who paid), and of the one with the negative net. */
      from: number;
      to: number;
    }
  | { kind: 'refused'; line: number; reason: string }
  | { kind: 'total'; line: number; currency: string; nets: Map<number, number> }
  | { kind: 'blank'; line: number };

/**
 * An amount in `currency`'s minor units, exactly: `-12.5` in EUR is −1250. Decimals beyond the
 * currency's minor unit are accepted only when they are zeros (`1000.00` yen is 1000).
 */
export function toMinorUnits(text: string, currency: string): number | string {
  const value = text.trim();
  if (value === '') return 0;
  const match = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(value);
  if (!match) return `"${text}" is not a decimal amount`;
  const digits = minorUnitsOf(currency) ?? 0;
  const fraction = match[3] ?? '';
  if (/[1-9]/.test(fraction.slice(digits))) {
    return `"${text}" has more decimals than ${currency} allows (${digits})`;
  }
  const units = BigInt(`${match[2]}${fraction.slice(0, digits).padEnd(digits, '0')}`);
  if (units > BigInt(MAX_AMOUNT)) return `"${text}" is over the largest amount`;
  const n = Number(units);
  return match[1] === '-' && n !== 0 ? -n : n;
}

/** A `YYYY-MM-DD` date (Splitwise's), as the start of that day in UTC; undefined when it is no date. */
function toOccurredAt(text: string): string | undefined {
  const value = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const at = new Date(`${value}T00:00:00.000Z`);
  return Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== value ? undefined : at.toISOString();
}

/**
 * Paid and owed from the nets (API.md §6b): everyone with a negative net owes its opposite and paid
 * nothing; the payers (positive nets, total P) paid their net plus their own share, where their
 * shares are the rest of the cost, C − P, divided among them in proportion to their nets (largest
 * remainder, ties to the column further left). So Σ paid = Σ owed = C and paid − owed = net for
 * everyone. Undefined when C < P (the cost cannot cover what the others owe).
 */
export function deriveExpense(
  cost: number,
  nets: ReadonlyMap<number, number>,
): { paid: Map<number, number>; owed: Map<number, number> } | undefined {
  const payers = [...nets].filter(([, net]) => net > 0);
  const owedByPayers = payers.reduce((sum, [, net]) => sum + net, 0);
  if (cost < owedByPayers || payers.length === 0) return undefined;
  const own = allocateLargestRemainder(
    cost - owedByPayers,
    payers.map(([, net]) => net),
  );
  const paid = new Map<number, number>();
  const owed = new Map<number, number>();
  payers.forEach(([column, net], i) => {
    const share = own[i] as number;
    paid.set(column, net + share);
    if (share > 0) owed.set(column, share);
  });
  for (const [column, net] of nets) if (net < 0) owed.set(column, -net);
  return { paid, owed };
}

/** Reads one record against the header's people: what it is, decided from the file alone. */
export function interpretRecord(record: CsvRecord, people: readonly string[]): SplitwiseRow {
  const { line, fields } = record;
  if (fields.length === 1 && (fields[0] as string).trim() === '') return { kind: 'blank', line };
  if (fields.length !== FIXED.length + people.length) {
    throw new MalformedFile(
      line,
      `${fields.length} fields where the header has ${FIXED.length + people.length}`,
    );
  }
  const [date, rawDescription, rawCategory, rawCost, rawCurrency] = fields as [
    string,
    string,
    string,
    string,
    string,
  ];
  const refuse = (reason: string): SplitwiseRow => ({ kind: 'refused', line, reason });
  const currency = rawCurrency.trim().toUpperCase();
  const description = rawDescription.trim();
  if (!CURRENCIES.has(currency)) return refuse(`unknown currency "${rawCurrency}"`);
  const nets = new Map<number, number>();
  for (let p = 0; p < people.length; p++) {
    const net = toMinorUnits(fields[FIXED.length + p] as string, currency);
    if (typeof net === 'string') return refuse(`${people[p]}: ${net}`);
    if (net !== 0) nets.set(p, net);
  }
  if (description.toLowerCase() === TOTAL_DESCRIPTION) return { kind: 'total', line, currency, nets };
  const occurredAt = toOccurredAt(date);
  if (!occurredAt) return refuse(`"${date}" is not a date (YYYY-MM-DD)`);
  const cost = toMinorUnits(rawCost, currency);
  if (typeof cost === 'string') return refuse(`cost: ${cost}`);
  if (cost <= 0) return refuse('the cost must be positive');
  const sum = [...nets.values()].reduce((a, b) => a + b, 0);
  if (sum !== 0) return refuse(`the nets add up to ${formatUnits(sum, currency)}, not to 0`);
  if (nets.size === 0) return refuse("no one's net changes");
  const text = clipCodePoints(description || rawCategory.trim() || 'Imported from Splitwise', 200);
  if (rawCategory.trim().toLowerCase() === PAYMENT_CATEGORY) {
    const entries = [...nets];
    const from = entries.find(([, net]) => net > 0);
    const to = entries.find(([, net]) => net < 0);
    if (entries.length !== 2 || !from || !to) {
      return refuse('a payment must move money between exactly two people');
    }
    if (from[1] !== cost) {
      return refuse(
        `a payment's cost (${rawCost.trim()}) must equal the amount paid (${formatUnits(from[1], currency)})`,
      );
    }
    return {
      kind: 'settlement',
      line,
      description: text,
      occurredAt,
      currency,
      amount: cost,
      from: from[0],
      to: to[0],
    };
  }
  const derived = deriveExpense(cost, nets);
  if (!derived) {
    const owedToPayers = [...nets.values()].filter((n) => n > 0).reduce((a, b) => a + b, 0);
    return refuse(
      `the cost (${rawCost.trim()}) is less than what the others owe the payers (${formatUnits(owedToPayers, currency)})`,
    );
  }
  return {
    kind: 'expense',
    line,
    description: text,
    category: clipCodePoints(rawCategory.trim(), 64) || null,
    occurredAt,
    currency,
    amount: cost,
    nets,
    ...derived,
  };
}

/** `units` minor units of `currency` as a decimal (−1250 EUR → "-12.50"). */
export function formatUnits(units: number, currency: string): string {
  const digits = minorUnitsOf(currency) ?? 0;
  const sign = units < 0 ? '-' : '';
  const text = String(Math.abs(units)).padStart(digits + 1, '0');
  return digits === 0 ? `${sign}${text}` : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** The person columns of the header record, or `MalformedFile` on line 1. */
function peopleOf(header: CsvRecord | undefined): string[] {
  if (!header) throw new MalformedFile(1, 'the file is empty');
  const names = header.fields.map((f) => f.trim());
  const fixedOk = FIXED.every((name, i) => names[i]?.toLowerCase() === name.toLowerCase());
  if (!fixedOk) {
    throw new MalformedFile(
      header.line,
      `the header must start with ${FIXED.join(',')} (a Splitwise export)`,
    );
  }
  const people = names.slice(FIXED.length);
  if (people.length === 0) throw new MalformedFile(header.line, 'the header names no person column');
  people.forEach((name, i) => {
    if (name === '') throw new MalformedFile(header.line, `person column ${i + 1} has no name`);
    if (people.indexOf(name) !== i)
      throw new MalformedFile(header.line, `person column "${name}" appears twice`);
  });
  return people;
}

/**
 * The whole file checked once, before anything is written: `MalformedFile` for the first line that
 * makes it no Splitwise export (so nothing is ever half-imported for a broken file); otherwise its
 * people, its number of rows, and whether its "Total balance" row agrees with the rows imported.
 * Holds one record at a time plus one running sum per person.
 */
export function checkSplitwiseFile(text: string): SplitwiseFile {
  const records = csvRecords(text);
  const people = peopleOf(records.next().value as CsvRecord | undefined);
  let rows = 0;
  let total: Extract<SplitwiseRow, { kind: 'total' }> | undefined;
  // The rows' nets, by currency then column, to check the total row against.
  const sums = new Map<string, number[]>();
  for (const record of records) {
    const row = interpretRecord(record, people);
    if (row.kind === 'blank') continue;
    if (row.kind === 'total') {
      if (total) throw new MalformedFile(row.line, 'a second "Total balance" row');
      total = row;
      continue;
    }
    if (total) throw new MalformedFile(row.line, 'a row after the "Total balance" row');
    rows++;
    if (row.kind === 'refused') continue;
    const perPerson = sums.get(row.currency) ?? people.map(() => 0);
    sums.set(row.currency, perPerson);
    if (row.kind === 'expense') for (const [column, net] of row.nets) perPerson[column]! += net;
    else {
      perPerson[row.from]! += row.amount;
      perPerson[row.to]! -= row.amount;
    }
  }
  if (rows === 0) throw new MalformedFile(1, 'the file has no rows');
  let totalMismatch: string | undefined;
  if (total) {
    const found = sums.get(total.currency) ?? people.map(() => 0);
    const off = people.flatMap((name, column) => {
      const expected = total.nets.get(column) ?? 0;
      const actual = found[column] ?? 0;
      return expected === actual
        ? []
        : [
            `${name}: ${formatUnits(expected, total.currency)} in the file, ${formatUnits(actual, total.currency)} from the rows imported`,
          ];
    });
    if (off.length > 0) totalMismatch = `the total balance does not match the rows: ${off.join('; ')}`;
  }
  return { people, rows, totalLine: total?.line, totalMismatch };
}
