/**
 * The exchange rates of an outside provider (`FX_PROVIDER`), as the API uses them: a port, so the
 * API never knows where they come from; the composition root wires an adapter (the ECB's daily
 * reference rates, `createEcbRatesProvider`) or none.
 */
export type ProviderRates = {
  /** The provider's name, as a rate's `source` in converted balances (`ecb`). */
  source: string;
  /** The currency the rates are quoted against (`EUR` for the ECB). */
  base: string;
  /** The day the rates are of (`YYYY-MM-DD`). */
  asOf: string;
  /** Units of each currency per one `base`, as the provider wrote them (decimal strings). */
  rates: ReadonlyMap<string, string>;
};

export type RatesProvider = {
  /**
   * The latest good rates, fetched when the cached ones are stale. Throws `503 unavailable` when
   * the provider has never answered with rates (since this process started).
   */
  rates(): Promise<ProviderRates>;
};
