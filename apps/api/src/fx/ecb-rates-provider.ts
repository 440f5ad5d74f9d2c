import { unavailable } from '@tally/http-kit';
import { parseEcbRates } from './parse-ecb-rates';
import type { ProviderRates, RatesProvider } from './rates-provider';

/** The ECB's daily reference rates, the default of `FX_ECB_URL`. */
export const ECB_DAILY_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';

/** After a failed fetch, how long requests wait before one tries again (so a down ECB is not hammered). */
const RETRY_AFTER_FAILURE_MS = 10_000;

/**
 * The most an answer may hold (decoded bytes): the real document is under 2 KB. Reading stops at
 * the first byte past it and the fetch fails, so a wrong URL or a hostile server cannot fill the
 * process's memory.
 */
export const ECB_MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * The body of `response` as UTF-8 text, read a chunk at a time and abandoned (the connection closed)
 * at the first chunk that takes it past `maxBytes`. A compressed answer counts as decoded.
 */
async function boundedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
  if (!encoded && declared > maxBytes) {
    await response.body?.cancel();
    throw new Error(`the ECB answer is ${declared} bytes, more than the ${maxBytes} bytes allowed`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new Error(`the ECB answer is more than the ${maxBytes} bytes allowed`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export type EcbRatesProviderOptions = {
  /** Where the `eurofxref-daily.xml` document is fetched from (`FX_ECB_URL`). */
  url: string;
  /** How long fetched rates are served before they are fetched again (`FX_CACHE_SECONDS`). */
  cacheSeconds: number;
  /** A fetch that takes longer, headers and body together, is abandoned (`FX_FETCH_TIMEOUT_MS`). */
  timeoutMs: number;
  /** An answer longer than this (decoded bytes) is abandoned. @default ECB_MAX_RESPONSE_BYTES */
  maxBytes?: number;
  /** Told about a failed fetch (the composition root logs and counts it). */
  onError?: (error: unknown) => void;
  /** The clock. @default Date.now */
  now?: () => number;
};

/**
 * The ECB's euro reference rates, fetched over HTTP and cached for `cacheSeconds`.
 *
 * - At most one fetch is in flight: every caller that needs rates meanwhile waits for that one.
 * - Stale rates are served at once while a fetch refreshes them in the background.
 * - A fetch is bounded: `timeoutMs` for all of it (an answer that stalls half-way included), and at
 *   most `maxBytes` of body.
 * - A failed fetch (an error status, a timeout, an answer too large, a body that is not an ECB
 *   document) keeps the last good rates; with none yet, the caller gets `503 unavailable`
 *   (`Retry-After: 10`), and no new fetch starts for 10 s. Never a `500`.
 */
export function createEcbRatesProvider(options: EcbRatesProviderOptions): RatesProvider {
  const now = options.now ?? Date.now;
  let good: { rates: ProviderRates; fetchedAt: number } | undefined;
  let inFlight: Promise<ProviderRates> | undefined;
  let failedAt: number | undefined;

  async function fetchOnce(): Promise<ProviderRates> {
    const response = await fetch(options.url, {
      headers: { Accept: 'application/xml, text/xml' },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`the ECB answered ${response.status}`);
    }
    const rates = parseEcbRates(await boundedText(response, options.maxBytes ?? ECB_MAX_RESPONSE_BYTES));
    good = { rates, fetchedAt: now() };
    failedAt = undefined;
    return rates;
  }

  function refresh(): Promise<ProviderRates> {
    inFlight ??= fetchOnce()
      .catch((error: unknown) => {
        failedAt = now();
        options.onError?.(error);
        throw error;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  const recentlyFailed = () => failedAt !== undefined && now() - failedAt < RETRY_AFTER_FAILURE_MS;

  return {
    async rates() {
      if (good && now() - good.fetchedAt < options.cacheSeconds * 1000) return good.rates;
      if (good) {
        // Stale: served as they are; the refresh's failure was reported by `refresh`.
        if (!recentlyFailed()) refresh().catch(() => {});
        return good.rates;
      }
      if (!recentlyFailed() || inFlight !== undefined) {
        try {
          return await refresh();
        } catch {
          // Reported by `refresh`; answered below.
        }
      }
      throw unavailable(
        'The exchange-rate provider (ECB) has not answered with rates yet; retry later, or set the group’s own rates.',
        10,
      );
    },
  };
}
