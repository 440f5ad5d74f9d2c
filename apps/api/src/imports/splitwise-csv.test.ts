import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  checkSplitwiseFile,
  csvRecords,
  deriveExpense,
  interpretRecord,
  MalformedFile,
  toMinorUnits,
} from './splitwise-csv';

const FIXTURE = readFileSync(path.join(__dirname, '../../../../test/fixtures/splitwise-export.csv'), 'utf8');
const HEADER = 'Date,Description,Category,Cost,Currency,Ada,Bob';

const rowsOf = (text: string) => {
  const { people } = checkSplitwiseFile(text);
  const records = csvRecords(text);
  records.next();
  return [...records].map((r) => interpretRecord(r, people));
};

const malformedLine = (text: string): number | undefined => {
  try {
    checkSplitwiseFile(text);
    return undefined;
  } catch (error) {
    if (error instanceof MalformedFile) return error.line;
    throw error;
  }
};

describe('csvRecords (RFC 4180)', () => {
  it('reads quoted fields, escaped quotes, CRLF and a line break inside quotes, with each record’s line', () => {
    const text = 'a,"b, c","say ""hi"""\r\n"two\nlines",x,\r\nlast,,';
    expect([...csvRecords(text)]).toEqual([
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
  it('has three people, seven rows, and a total that matches them', () => {
    expect(checkSplitwiseFile(FIXTURE)).toEqual({
      people: ['Ada Lovelace', 'Bob Smith', 'Carol "CJ" Jones'],
      rows: 7,
      totalLine: 10,
      totalMismatch: undefined,
    });
  });

  it('reads expenses, payments as settlements from the positive net to the negative, a blank line and the total', () => {
    const rows = rowsOf(FIXTURE);
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
  const one = (row: string) => rowsOf(`${HEADER}\n${row}\n`)[0];
  it.each([
    ['2024-13-01,X,General,10.00,EUR,5.00,-5.00', /is not a date/],
    ['2024-01-01,X,General,10.00,EUR,5.00,-4.00', /add up to 1.00, not to 0/],
    ['2024-01-01,X,General,4.00,EUR,5.00,-5.00', /less than what the others owe/],
    ['2024-01-01,X,General,10.001,EUR,5.00,-5.00', /more decimals/],
    ['2024-01-01,X,General,10.00,XXX,5.00,-5.00', /unknown currency/],
    ['2024-01-01,X,General,0.00,EUR,0.00,0.00', /cost must be positive/],
    ['2024-01-01,X,Payment,9.00,EUR,10.00,-10.00', /must equal the amount paid/],
  ])('%s', (row, reason) => {
    expect(one(row)).toMatchObject({ kind: 'refused', line: 2, reason: expect.stringMatching(reason) });
  });

  it('reports a total that does not match the rows', () => {
    const text = `${HEADER}\n2024-01-01,X,General,10.00,EUR,5.00,-5.00\n\n2024-02-01,Total balance, , ,EUR,4.00,-4.00\n`;
    expect(checkSplitwiseFile(text).totalMismatch).toMatch(/Ada: 4.00 in the file, 5.00 from the rows/);
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
  ])('%j → line %i', (text, line) => {
    expect(malformedLine(text)).toBe(line);
  });
});

describe('imported text is cut in code points (API.md §1 Strings)', () => {
  it('keeps 200 code points of a description and 64 of a category, never half an emoji', () => {
    const description = `${'x'.repeat(199)}😀😀`;
    const category = `${'c'.repeat(63)}😀😀`;
    const [row] = rowsOf(`${HEADER}\n2026-01-02,"${description}",${category},10.00,EUR,5.00,-5.00\n`);
    expect(row).toMatchObject({
      kind: 'expense',
      description: `${'x'.repeat(199)}😀`,
      category: `${'c'.repeat(63)}😀`,
    });
  });
});
