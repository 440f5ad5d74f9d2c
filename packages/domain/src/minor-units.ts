/**
 * ISO 4217 minor units (the exponent: how many decimals one major unit has) of every active code,
 * plus the withdrawn codes the API still accepts as a `currency` (its runtime's
 * `Intl.supportedValuesOf('currency')` lists a few: ANG, CUC, HRK, SLL, ZWL). Taken from ISO 4217
 * list one, not from `Intl.NumberFormat`: CLDR's display digits differ (it shows IQD with 0
 * decimals, ISO says 3; it shows HUF and IDR without decimals, ISO says 2), and converting needs the
 * unit amounts are counted in, not how they are displayed.
 *
 * Codes ISO gives no minor unit (`N.A.`: XAU, XDR, XSU, XXX…) are absent: an amount in them has no
 * defined minor unit, so it cannot be converted.
 */
const MINOR_UNITS: Readonly<Record<string, number>> = Object.freeze({
  // 0 decimals
  ...Object.fromEntries(
    'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'.split(' ').map((c) => [c, 0]),
  ),
  // 3 decimals
  ...Object.fromEntries('BHD IQD JOD KWD LYD OMR TND'.split(' ').map((c) => [c, 3])),
  // 4 decimals
  CLF: 4,
  UYW: 4,
  // 2 decimals
  ...Object.fromEntries(
    (
      'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD ' +
      'CAD CDF CHE CHF CHW CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL ' +
      'GHS GIP GMD GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR ' +
      'LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB ' +
      'PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP ' +
      'SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG ZWL'
    )
      .split(' ')
      .map((c) => [c, 2]),
  ),
});

/**
 * The number of decimals of `currency`'s minor unit (JPY 0, USD 2, KWD 3, CLF 4), or undefined
 * for a code without one (XAU, XDR, XSU…) or one ISO 4217 does not list.
 */
export function minorUnitsOf(currency: string): number | undefined {
  return Object.hasOwn(MINOR_UNITS, currency) ? MINOR_UNITS[currency] : undefined;
}

/** Every code with a minor unit, sorted. */
export const CURRENCIES_WITH_MINOR_UNITS: readonly string[] = Object.freeze(Object.keys(MINOR_UNITS).sort());
