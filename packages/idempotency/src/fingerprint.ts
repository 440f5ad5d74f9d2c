import { hash } from 'node:crypto';
import canonicalize from 'canonicalize';

// `hash` is crypto's one-shot digest: no Hash object per request, about half the cost of createHash.

/**
 * JSON with object keys sorted and no insignificant whitespace (RFC 8785, by the `canonicalize` package
 * the SDK's outbox uses too): the same body in any key order is the same text. For JSON values it is
 * byte for byte what this function returned before the package (fingerprint.test.ts holds it to that),
 * so fingerprints stored by an older server still match. `undefined` reads as `null`, as it did.
 */
export function canonicalJson(value: unknown): string {
  try {
    return canonicalize(value) ?? 'null';
  } catch {
    // A number JSON text cannot hold (`1e400` parses to Infinity; the package refuses it): written as
    // JSON.stringify writes it, `null`, as this function always did. Such a body fails validation.
    return canonicalize(JSON.parse(JSON.stringify(value))) ?? 'null';
  }
}

/** Method plus canonical body: what makes two requests with one key "the same request". */
export function fingerprintOf(method: string, body: unknown): string {
  const canonical = body === undefined ? '' : canonicalJson(body);
  return hash('sha256', `${method.toUpperCase()}\n${canonical}`, 'hex');
}

/** The scope of a key: (user, key, path), hashed so arbitrary keys make bounded, safe store keys. */
export function scopeOf(userId: string, key: string, path: string): string {
  return hash('sha256', JSON.stringify([userId, key, path]), 'hex');
}
