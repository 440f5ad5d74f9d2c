import { CURRENCIES_WITH_MINOR_UNITS, minorUnitsOf } from './minor-units';

describe('minorUnitsOf', () => {
  it.each([
    ['JPY', 0],
    ['KRW', 0],
    ['USD', 2],
    ['EUR', 2],
    ['INR', 2],
    ['HUF', 2],
    ['IQD', 3],
    ['KWD', 3],
    ['BHD', 3],
    ['JOD', 3],
    ['OMR', 3],
    ['TND', 3],
    ['LYD', 3],
    ['CLF', 4],
    ['UYW', 4],
  ])('%s has %i decimals (ISO 4217, not CLDR display digits)', (code, units) => {
    expect(minorUnitsOf(code)).toBe(units);
  });

  it('has none for codes without a minor unit, unknown codes and object keys', () => {
    for (const code of ['XAU', 'XDR', 'XSU', 'XXX', 'ABC', 'toString', '__proto__']) {
      expect(minorUnitsOf(code)).toBeUndefined();
    }
  });

  it('knows every code the API accepts as a currency, but those ISO 4217 gives no minor unit', () => {
    const accepted = Intl.supportedValuesOf('currency');
    const unknown = accepted.filter((code) => minorUnitsOf(code) === undefined);
    expect(unknown.filter((code) => !code.startsWith('X') || code === 'XCD' || code === 'XCG')).toEqual([]);
    expect(CURRENCIES_WITH_MINOR_UNITS.length).toBeGreaterThan(150);
  });
});
