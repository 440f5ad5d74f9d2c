import {
  allocateLargestRemainder,
  CURRENCIES_WITH_MINOR_UNITS,
  clipCodePoints,
  isRealTimestamp,
  MAX_AMOUNT,
  minorUnitsOf,
  textProblem,
} from '@tally/domain';
import {
  type CsvRecord,
  csvRecords,
  MalformedFile,
  nextTurn,
  OverLimit,
  PARSE_SLICE_CHARS,
  PARSE_SLICE_RECORDS,
  TooManyFields,
} from './csv-records';

// What the routes and the import tests take from here, as before the reader had its own module.
export { MalformedFile, nextTurn, OverLimit, PARSE_SLICE_RECORDS } from './csv-records';

/**
 * A Splitwise CSV export (API.md §6b), read without holding more than one record at a time: the
 * file is the request's string; records are produced one by one from it (RFC 4180: quoted fields,
 * `""` inside quotes, CRLF or LF line ends).
 *
 * Two kinds of problems: a file that is not a Splitwise export at all (broken quoting, a record
 * with the wrong number of fields, a missing header) is `MalformedFile`, refused whole with the
 * line; a well-formed row whose content cannot be imported (a date that does not parse, nets that
 * do not add up) is refused alone, with a reason, and the import goes on. A file over a stated
 * bound (rows, person columns) is `OverLimit`, refused whole.
 */

/** Person columns a file may have: an expense takes at most 200 participants (API.md §4). */
export const MAX_PEOPLE = 200;

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
  if (!match) return `${quote(text)} is not a decimal amount`;
  const digits = minorUnitsOf(currency) ?? 0;
  const fraction = match[3] ?? '';
  if (/[1-9]/.test(fraction.slice(digits))) {
    return `${quote(text)} has more decimals than ${currency} allows (${digits})`;
  }
  // Leading zeros aside, more digits than the largest amount has is over it (and no BigInt of a
  // megabyte of digits is ever made).
  const whole = `${match[2]}${fraction.slice(0, digits).padEnd(digits, '0')}`.replace(/^0+(?=\d)/, '');
  const units = whole.length > String(MAX_AMOUNT).length ? undefined : BigInt(whole);
  if (units === undefined || units > BigInt(MAX_AMOUNT)) return `${quote(text)} is over the largest amount`;
  const n = Number(units);
  return match[1] === '-' && n !== 0 ? -n : n;
}

/**
 * A `YYYY-MM-DD` date (Splitwise's), as the start of that day in UTC; undefined when it is no real
 * date within 0001–9999 (the one rule for dates, `isRealTimestamp`: `0000-01-01` and `2024-02-30`
 * are no dates, and PostgreSQL could not store the first).
 */
function toOccurredAt(text: string): string | undefined {
  const value = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const at = `${value}T00:00:00.000Z`;
  return isRealTimestamp(at) ? at : undefined;
}

/** The longest reason a refused row is given, in code points (the rest is cut, with `…`). */
export const MAX_REASON = 300;
/** The longest part of a cell a reason quotes. */
const MAX_QUOTED = 40;

/** U+0000, a high surrogate not followed by a low one, a low surrogate not after a high one. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is what this finds
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Text made storable: U+0000 and unpaired surrogates become U+FFFD. */
const storable = (text: string): string => text.replace(new RegExp(UNSTORABLE.source, 'g'), '\ufffd');

/** A cell (or a person column's name) as a reason names it: at most `MAX_QUOTED` code points, storable. */
const cell = (text: string): string => {
  const head = clipCodePoints(text, MAX_QUOTED);
  return `${storable(head)}${head.length < text.length ? '…' : ''}`;
};
const quote = (text: string): string => `"${cell(text)}"`;

/** A reason as stored and answered: storable, at most `MAX_REASON` code points. */
export function boundReason(reason: string): string {
  const head = clipCodePoints(reason, MAX_REASON);
  return storable(head.length < reason.length ? `${clipCodePoints(head, MAX_REASON - 1)}…` : head);
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
  const refuse = (reason: string): SplitwiseRow => ({ kind: 'refused', line, reason: boundReason(reason) });
  const currency = rawCurrency.trim().toUpperCase();
  const description = rawDescription.trim();
  if (!CURRENCIES.has(currency)) return refuse(`unknown currency ${quote(rawCurrency)}`);
  const nets = new Map<number, number>();
  for (let p = 0; p < people.length; p++) {
    const net = toMinorUnits(fields[FIXED.length + p] as string, currency);
    if (typeof net === 'string') return refuse(`${cell(people[p] as string)}: ${net}`);
    if (net !== 0) nets.set(p, net);
  }
  if (description.toLowerCase() === TOTAL_DESCRIPTION) return { kind: 'total', line, currency, nets };
  const occurredAt = toOccurredAt(date);
  if (!occurredAt) return refuse(`${quote(date)} is not a date (YYYY-MM-DD, years 0001–9999)`);
  const cost = toMinorUnits(rawCost, currency);
  if (typeof cost === 'string') return refuse(`cost: ${cost}`);
  if (cost <= 0) return refuse('the cost must be positive');
  const sum = [...nets.values()].reduce((a, b) => a + b, 0);
  if (sum !== 0) return refuse(`the nets add up to ${formatUnits(sum, currency)}, not to 0`);
  if (nets.size === 0) return refuse("no one's net changes");
  const text = clipCodePoints(description || rawCategory.trim() || 'Imported from Splitwise', 200);
  const category = clipCodePoints(rawCategory.trim(), 64);
  // The rule every description and category keeps (API.md §1 "Strings"): what the API would refuse
  // in a request is refused here as a row.
  if (textProblem(text, 'free', { max: 200 }) || textProblem(category, 'name', { max: 64 })) {
    return refuse(
      'the description or category holds a character Tally does not store (a control character or an unpaired surrogate)',
    );
  }
  if (rawCategory.trim().toLowerCase() === PAYMENT_CATEGORY) {
    const entries = [...nets];
    const from = entries.find(([, net]) => net > 0);
    const to = entries.find(([, net]) => net < 0);
    if (entries.length !== 2 || !from || !to) {
      return refuse('a payment must move money between exactly two people');
    }
    if (from[1] !== cost) {
      return refuse(
        `a payment's cost (${quote(rawCost.trim())}) must equal the amount paid (${formatUnits(from[1], currency)})`,
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
      `the cost (${quote(rawCost.trim())}) is less than what the others owe the payers (${formatUnits(owedToPayers, currency)})`,
    );
  }
  return {
    kind: 'expense',
    line,
    description: text,
    category: category || null,
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
  const seen = new Set<string>();
  people.forEach((name, i) => {
    if (name === '') throw new MalformedFile(header.line, `person column ${i + 1} has no name`);
    if (seen.has(name)) throw new MalformedFile(header.line, `person column ${quote(name)} appears twice`);
    seen.add(name);
  });
  return people;
}

/**
 * The header's person columns, read from `records` (whose field bound it sets: the header may have
 * `MAX_PEOPLE` person columns, each row then exactly the header's fields).
 */
export function readHeader(records: Iterator<CsvRecord>, limits: { maxFields: number }): string[] {
  limits.maxFields = FIXED.length + MAX_PEOPLE;
  let header: CsvRecord | undefined;
  try {
    header = records.next().value as CsvRecord | undefined;
  } catch (error) {
    if (!(error instanceof TooManyFields)) throw error;
    throw new OverLimit(
      'importPeople',
      MAX_PEOPLE,
      `The file has more than ${MAX_PEOPLE} person columns; an import takes at most ${MAX_PEOPLE}.`,
    );
  }
  const people = peopleOf(header);
  limits.maxFields = FIXED.length + people.length;
  return people;
}

/**
 * Ends a slice of the file's reading when it is full (`PARSE_SLICE_RECORDS` records or
 * `PARSE_SLICE_CHARS` characters since the last one): then `pause` lets the event loop run.
 */
export function createSlicer(pause: () => Promise<void> = nextTurn) {
  let records = 0;
  let from = 0;
  return async (record: CsvRecord): Promise<void> => {
    records++;
    if (records < PARSE_SLICE_RECORDS && record.end - from < PARSE_SLICE_CHARS) return;
    records = 0;
    from = record.end;
    await pause();
  };
}

/**
 * The whole file checked once, before anything is written: `MalformedFile` for the first line that
 * makes it no Splitwise export (so nothing is ever half-imported for a broken file), `OverLimit` as
 * soon as it has a row more than `maxRows` (or too many person columns); otherwise its people, its
 * number of rows, and whether its "Total balance" row agrees with the rows imported. Holds one
 * record at a time plus one running sum per person; read in slices (`createSlicer`), yielding to
 * the event loop between them.
 */
export async function checkSplitwiseFile(
  text: string,
  options: { maxRows: number; pause?: () => Promise<void> },
): Promise<SplitwiseFile> {
  const limits = { maxFields: Number.POSITIVE_INFINITY };
  const records = csvRecords(text, limits);
  const people = readHeader(records, limits);
  const endOfSlice = createSlicer(options.pause);
  let rows = 0;
  let total: Extract<SplitwiseRow, { kind: 'total' }> | undefined;
  // The rows' nets, by currency then column, to check the total row against.
  const sums = new Map<string, number[]>();
  for (const record of records) {
    await endOfSlice(record);
    const row = interpretRecord(record, people);
    if (row.kind === 'blank') continue;
    if (row.kind === 'total') {
      if (total) throw new MalformedFile(row.line, 'a second "Total balance" row');
      total = row;
      continue;
    }
    if (total) throw new MalformedFile(row.line, 'a row after the "Total balance" row');
    rows++;
    if (rows > options.maxRows) {
      throw new OverLimit(
        'importRows',
        options.maxRows,
        `The file has more than ${options.maxRows} rows; an import takes at most ${options.maxRows} (split the file).`,
      );
    }
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
            `${cell(name)}: ${formatUnits(expected, total.currency)} in the file, ${formatUnits(actual, total.currency)} from the rows imported`,
          ];
    });
    if (off.length > 0) {
      totalMismatch = boundReason(`the total balance does not match the rows: ${off.join('; ')}`);
    }
  }
  return { people, rows, totalLine: total?.line, totalMismatch };
}
