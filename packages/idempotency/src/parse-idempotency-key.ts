const PRINTABLE_ASCII = /^[\x20-\x7e]{1,255}$/;

export type ParsedKey = { ok: true; key: string } | { ok: false; reason: 'missing' | 'invalid' };

/**
 * Reads the `Idempotency-Key` header: 1–255 printable ASCII characters; the structured-header
 * form `"abc"` means the key `abc`.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): ParsedKey {
  if (header === undefined) return { ok: false, reason: 'missing' };
  if (Array.isArray(header)) return { ok: false, reason: 'invalid' };
  let key = header;
  if (key.length >= 2 && key.startsWith('"') && key.endsWith('"')) key = key.slice(1, -1);
  if (!PRINTABLE_ASCII.test(key) || key.trim().length === 0) return { ok: false, reason: 'invalid' };
  return { ok: true, key };
}
