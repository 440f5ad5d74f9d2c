import { csvRecord, decimalOf, numberCell, textCell, utcDateTime } from './csv';

describe('textCell (OWASP CSV injection, RFC 4180 quoting)', () => {
  it.each([
    ['=1+2', "'=1+2"],
    ['+SUM(A1:A9)', "'+SUM(A1:A9)"],
    ['-2+3', "'-2+3"],
    ['@cmd', "'@cmd"],
    ['\tlooks indented', "'\tlooks indented"],
    ['\r=1', `"'\r=1"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['=1,2', `"'=1,2"`],
  ])('neutralises %j as %j', (value, cell) => {
    expect(textCell(value)).toBe(cell);
  });

  it.each([
    ['Dinner', 'Dinner'],
    ['a, b', '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['naïve café 🍕', 'naïve café 🍕'],
    ['1=1', '1=1'],
    ["'quoted already", "'quoted already"],
    ['', ''],
  ])('leaves %j as %j', (value, cell) => {
    expect(textCell(value)).toBe(cell);
  });

  it('writes nothing for a missing value', () => {
    expect(textCell(null)).toBe('');
    expect(textCell(undefined)).toBe('');
  });
});

describe('numbers Tally writes', () => {
  it.each([
    [1250n, 2, '12.50'],
    [-1250n, 2, '-12.50'],
    [5n, 2, '0.05'],
    [-5n, 3, '-0.005'],
    [0n, 2, '0.00'],
    [1234n, 0, '1234'],
    [-7n, undefined, '-7'],
    [123456789012345678n, 4, '12345678901234.5678'],
  ])('%s minor units with %s decimals is %s', (minor, digits, text) => {
    expect(decimalOf(minor, digits)).toBe(text);
  });

  it('keeps a negative amount a number (no leading quote)', () => {
    expect(numberCell(decimalOf(-300n, 2))).toBe('-3.00');
  });

  it('refuses text in a number cell', () => {
    expect(() => numberCell('=1')).toThrow();
  });

  it('writes dates as a spreadsheet reads them and records with CRLF', () => {
    expect(utcDateTime(new Date('2026-01-31T10:05:06.789Z'))).toBe('2026-01-31 10:05:06');
    expect(csvRecord(['a', '', 'b'])).toBe('a,,b\r\n');
  });
});
