import { parseRate } from './parse-rate';

describe('parseRate', () => {
  it.each([
    ['1.0823', 10823n, 10000n],
    ['160', 160n, 1n],
    ['0.000123', 123n, 1000000n],
    ['16696.34', 1669634n, 100n],
    ['999999999999', 999999999999n, 1n],
    ['0.000000999999999999', 999999999999n, 10n ** 18n],
  ])('reads %s exactly', (text, numerator, denominator) => {
    expect(parseRate(text)).toEqual({ numerator, denominator });
  });

  it.each([
    ['', 'positive decimal'],
    ['-1.5', 'positive decimal'],
    ['1e3', 'positive decimal'],
    ['01.5', 'positive decimal'],
    ['.5', 'positive decimal'],
    ['1.', 'positive decimal'],
    ['1,5', 'positive decimal'],
    [' 1.5', 'positive decimal'],
    ['0', 'greater than 0'],
    ['0.000', 'greater than 0'],
    ['1.234567890123', '12 significant digits'],
    ['1234567890123', '12 significant digits'],
    ['0.000000000000000000001', '20 decimals'],
  ])('refuses %j', (text, message) => {
    expect(() => parseRate(text)).toThrow(message);
  });
});
