import { readFileSync } from 'node:fs';
import path from 'node:path';
import { clipCodePoints } from '@tally/domain';
import { csvRecords, MalformedFile, OverLimit, PARSE_SLICE_CHARS, PARSE_SLICE_RECORDS } from './csv-records';
import {
  boundReason,
  checkSplitwiseFile,
  deriveExpense,
  interpretRecord,
  MAX_PEOPLE,
  MAX_REASON,
  toMinorUnits,
} from './splitwise-csv';

const FIXTURE = readFileSync(path.join(__dirname, '../../../../test/fixtures/splitwise-export.csv'), 'utf8');
const HEADER = 'Date,Description,Category,Cost,Currency,Ada,Bob';

const check = (text: string, maxRows = 10_000) => checkSplitwiseFile(text, { maxRows });

const rowsOf = async (text: string) => {
  const { people } = await check(text);
  const records = csvRecords(text);
  records.next();
  return [...records].map((r) => interpretRecord(r, people));
};

const malformedLine = async (text: string): Promise<number | undefined> => {
  try {
    await check(text);
    return undefined;
  } catch (error) {
    if (error instanceof MalformedFile) return error.line;
    throw error;
  }
};

const recordsOf = (text: string) => [...csvRecords(text)].map(({ line, fields }) => ({ line, fields }));

/** A file of `rows` rows whose nets do not add up (each refused alone). */
const refusedRows = (rows: number) =>
  `${HEADER}\n${Array.from({ length: rows }, (_, i) => `2024-01-01,Row ${i},General,10.00,EUR,5.00,-4.00`).join('\n')}\n`;

describe('csvRecords (RFC 4180)', () => {
  it('reads quoted fields, escaped quotes, CRLF and a line break inside quotes, with each record’s line', () => {
    const text = 'a,"b, c","say ""hi"""\r\n"two\nlines",x,\r\nlast,,';
    expect(recordsOf(text)).toEqual([
      { line: 1, fields: ['a', 'b, c', 'say "hi"'] },
      { line: 2, fields: ['two\nlines', 'x', ''] },
      { line: 4, fields: ['last', '', ''] },
    ]);
  });

  it('refuses broken quoting with the line', () => {
    expect(() => [...csvRecords('a,b\n"open,c\n')]).toThrow(expect.objectContaining({ line: 2 }));
    expect(() => [...csvRecords('a,b\nx"y,c\n')]).toThrow(expect.objectContaining({ line: 2 }));
    expect(() => [...csvRecords('a,b\nc,d\n"q"z,c\n')]).toThrow(expect.objectContaining({ line: 3 }));
  });
});

describe('toMinorUnits', () => {
  it('converts decimals exactly, by the currency’s minor unit', () => {
    expect(toMinorUnits('45.00', 'EUR')).toBe(4500);
    expect(toMinorUnits('-0.1', 'EUR')).toBe(-10);
    expect(toMinorUnits('1000.00', 'JPY')).toBe(1000);
    expect(toMinorUnits('1.234', 'KWD')).toBe(1234);
    expect(toMinorUnits('', 'EUR')).toBe(0);
    expect(toMinorUnits('0.29', 'EUR')).toBe(29);
  });

  it('refuses more decimals than the currency has, and what is no decimal', () => {
    expect(toMinorUnits('1.005', 'EUR')).toMatch(/more decimals than EUR allows/);
    expect(toMinorUnits('1000.50', 'JPY')).toMatch(/more decimals than JPY allows/);
    expect(toMinorUnits('1e3', 'EUR')).toMatch(/not a decimal/);
    expect(toMinorUnits('12,50', 'EUR')).toMatch(/not a decimal/);
  });
});

describe('deriveExpense', () => {
  it('gives everyone paid − owed = net, with paid and owed each adding up to the cost', () => {
    const nets = new Map([
      [0, 700],
      [1, 301],
      [2, -1001],
    ]);
    const derived = deriveExpense(1500, nets)!;
    const sum = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    expect(sum(derived.paid)).toBe(1500);
    expect(sum(derived.owed)).toBe(1500);
    for (const [column, net] of nets) {
      expect((derived.paid.get(column) ?? 0) - (derived.owed.get(column) ?? 0)).toBe(net);
    }
    // The payers' own 499 are split 700 : 301 (largest remainder).
    expect(derived.owed.get(0)).toBe(349);
    expect(derived.owed.get(1)).toBe(150);
  });

  it('refuses a cost below what the others owe the payers', () => {
    expect(
      deriveExpense(
        999,
        new Map([
          [0, 1000],
          [1, -1000],
        ]),
      ),
    ).toBeUndefined();
  });
});

describe('the sample export (test/fixtures/splitwise-export.csv)', () => {
  it('has three people, seven rows, and a total that matches them', async () => {
    expect(await check(FIXTURE)).toEqual({
      people: ['Ada Lovelace', 'Bob Smith', 'Carol "CJ" Jones'],
      rows: 7,
      totalLine: 10,
      totalMismatch: undefined,
    });
  });

  it('reads expenses, payments as settlements from the positive net to the negative, a blank line and the total', async () => {
    const rows = await rowsOf(FIXTURE);
    expect(rows.map((r) => r.kind)).toEqual([
      'expense',
      'expense',
      'expense',
      'expense',
      'expense',
      'settlement',
      'settlement',
      'blank',
      'total',
    ]);
    expect(rows[1]).toMatchObject({ description: 'Dinner, Trattoria Roma', amount: 9000, currency: 'EUR' });
    expect(rows[5]).toMatchObject({ kind: 'settlement', from: 0, to: 1, amount: 1000, line: 7 });
  });
});

describe('rows refused with a reason', () => {
  const one = async (row: string) => (await rowsOf(`${HEADER}\n${row}\n`))[0];
  it.each([
    ['2024-13-01,X,General,10.00,EUR,5.00,-5.00', /is not a date/],
    ['2024-01-01,X,General,10.00,EUR,5.00,-4.00', /add up to 1.00, not to 0/],
    ['2024-01-01,X,General,4.00,EUR,5.00,-5.00', /less than what the others owe/],
    ['2024-01-01,X,General,10.001,EUR,5.00,-5.00', /more decimals/],
    ['2024-01-01,X,General,10.00,XXX,5.00,-5.00', /unknown currency/],
    ['2024-01-01,X,General,0.00,EUR,0.00,0.00', /cost must be positive/],
    ['2024-01-01,X,Payment,9.00,EUR,10.00,-10.00', /must equal the amount paid/],
    // Dates PostgreSQL cannot hold, or that are no calendar date: refused as rows (issue 30).
    ['0000-01-01,X,General,10.00,EUR,5.00,-5.00', /"0000-01-01" is not a date/],
    ['2024-02-30,X,General,10.00,EUR,5.00,-5.00', /"2024-02-30" is not a date/],
    ['2023-02-29,X,General,10.00,EUR,5.00,-5.00', /is not a date/],
    ['2024-01-01,"X\u0000Y",General,10.00,EUR,5.00,-5.00', /a control character or an unpaired surrogate/],
    ['2024-01-01,"X\ud800Y",General,10.00,EUR,5.00,-5.00', /a control character or an unpaired surrogate/],
    ['2024-01-01,X,"G\udc00",10.00,EUR,5.00,-5.00', /a control character or an unpaired surrogate/],
  ])('%s', async (row, reason) => {
    expect(await one(row)).toMatchObject({ kind: 'refused', line: 2, reason: expect.stringMatching(reason) });
  });

  it('refuses an amount of a hundred thousand digits as over the largest amount', async () => {
    expect(await one(`2024-01-01,X,General,${'9'.repeat(100_000)},EUR,5.00,-5.00`)).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/^cost: "9{40}…" is over the largest amount$/),
    });
  });

  it('accepts the first and last days of the years 0001–9999, and a leap day', async () => {
    for (const date of ['0001-01-01', '9999-12-31', '2024-02-29']) {
      expect(await one(`${date},X,General,10.00,EUR,5.00,-5.00`)).toMatchObject({
        kind: 'expense',
        occurredAt: `${date}T00:00:00.000Z`,
      });
    }
  });

  it('bounds a reason, whatever the cell it quotes, and keeps it storable', async () => {
    const row = await one(`2024-01-01,X,General,10.00,${'Q'.repeat(1_000_000)},5.00,-5.00`);
    expect(row).toMatchObject({ kind: 'refused', reason: `unknown currency "${'Q'.repeat(40)}…"` });
    expect(boundReason('x'.repeat(MAX_REASON + 1))).toBe(`${'x'.repeat(MAX_REASON - 1)}…`);
    expect(boundReason('a\u0000b\ud800c')).toBe('a\ufffdb\ufffdc');
    // Cut by code points: never half of a pair.
    expect(clipCodePoints('ab😀c', 3)).toBe('ab😀');
    const long = await one(`2024-01-01,${'d'.repeat(199)}😀tail,General,10.00,EUR,5.00,-5.00`);
    expect(long).toMatchObject({ kind: 'expense', description: `${'d'.repeat(199)}😀` });
  });

  it('reports a total that does not match the rows', async () => {
    const text = `${HEADER}\n2024-01-01,X,General,10.00,EUR,5.00,-5.00\n\n2024-02-01,Total balance, , ,EUR,4.00,-4.00\n`;
    expect((await check(text)).totalMismatch).toMatch(/Ada: 4.00 in the file, 5.00 from the rows/);
  });
});

describe('malformed files, refused whole with the line', () => {
  it.each([
    ['', 1],
    ['Date,Description,Cost\n', 1],
    [`${HEADER}\n`, 1],
    [`${HEADER}\n2024-01-01,X,General,10.00,EUR,5.00,-5.00\n2024-01-02,Y,General,10.00,EUR,5.00\n`, 3],
    [`${HEADER}\n2024-01-01,"X,General,10.00,EUR,5.00,-5.00\n`, 2],
    ['Date,Description,Category,Cost,Currency,Ada,Ada\n2024-01-01,X,General,10.00,EUR,5.00,-5.00\n', 1],
  ])('%j → line %i', async (text, line) => {
    expect(await malformedLine(text)).toBe(line);
  });

  it('refuses a row with more fields than the header at the first one too many', async () => {
    const text = `${HEADER}\n2024-01-01,X,General,10.00,EUR,5.00,-5.00${',0'.repeat(1000)}\n`;
    await expect(check(text)).rejects.toThrow(
      expect.objectContaining({ line: 2, reason: 'more than 7 fields where the header has 7' }),
    );
  });
});

describe('bounds (API.md §9.1)', () => {
  const overLimit = async (text: string, maxRows = 10_000) => {
    try {
      await check(text, maxRows);
    } catch (error) {
      if (error instanceof OverLimit) return { name: error.limit, max: error.max };
      throw error;
    }
    return undefined;
  };

  it('takes at most maxRows rows (refused ones count), stopping at the first row over it', async () => {
    expect((await check(refusedRows(100), 100)).rows).toBe(100);
    expect(await overLimit(refusedRows(101), 100)).toEqual({ name: 'importRows', max: 100 });
    // A malformed line after the row too many is never read: the bound answers first.
    expect(await overLimit(`${refusedRows(101)}broken"line\n`, 100)).toEqual({
      name: 'importRows',
      max: 100,
    });
  });

  it(`takes at most ${MAX_PEOPLE} person columns`, async () => {
    const header = (n: number) =>
      `Date,Description,Category,Cost,Currency,${Array.from({ length: n }, (_, i) => `P${i}`).join(',')}`;
    const row = (n: number) => `2024-01-01,X,General,10.00,EUR,5.00,-5.00${',0'.repeat(n - 2)}`;
    expect((await check(`${header(MAX_PEOPLE)}\n${row(MAX_PEOPLE)}\n`)).people).toHaveLength(MAX_PEOPLE);
    expect(await overLimit(`${header(MAX_PEOPLE + 1)}\n${row(MAX_PEOPLE + 1)}\n`)).toEqual({
      name: 'importPeople',
      max: MAX_PEOPLE,
    });
    // A header of a hundred thousand columns is refused at column 201, without a quadratic check.
    expect(await overLimit(`${header(100_000)}\n`)).toEqual({ name: 'importPeople', max: MAX_PEOPLE });
  });
});

describe('reading in slices', () => {
  it(`yields to the event loop every ${PARSE_SLICE_RECORDS} records, so that other work runs meanwhile`, async () => {
    let pauses = 0;
    const pause = () => {
      pauses++;
      return new Promise<void>((resolve) => setImmediate(resolve));
    };
    // Work queued before the check starts (another request's callback) runs during it.
    let ranDuring = false;
    let checking = true;
    setImmediate(() => {
      ranDuring = checking;
    });
    const file = await checkSplitwiseFile(refusedRows(2_000), { maxRows: 10_000, pause });
    checking = false;
    expect(file.rows).toBe(2_000);
    expect(pauses).toBe(Math.floor(2_000 / PARSE_SLICE_RECORDS));
    expect(ranDuring).toBe(true);
  });

  it(`ends a slice after ${PARSE_SLICE_CHARS} characters, however few records`, async () => {
    let pauses = 0;
    const pause = async () => {
      pauses++;
    };
    const wide = `2024-01-01,${'w'.repeat(PARSE_SLICE_CHARS)},General,10.00,EUR,5.00,-5.00`;
    await checkSplitwiseFile(`${HEADER}\n${wide}\n${wide}\n${wide}\n`, { maxRows: 10, pause });
    expect(pauses).toBe(3);
  });
});

describe('imported text is cut in code points (API.md §1 Strings)', () => {
  it('keeps 200 code points of a description and 64 of a category, never half an emoji', async () => {
    const description = `${'x'.repeat(199)}😀😀`;
    const category = `${'c'.repeat(63)}😀😀`;
    const [row] = await rowsOf(`${HEADER}\n2026-01-02,"${description}",${category},10.00,EUR,5.00,-5.00\n`);
    expect(row).toMatchObject({
      kind: 'expense',
      description: `${'x'.repeat(199)}😀`,
      category: `${'c'.repeat(63)}😀`,
    });
  });
});
