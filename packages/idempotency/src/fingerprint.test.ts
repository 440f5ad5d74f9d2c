import fc from 'fast-check';
import { canonicalJson, fingerprintOf, scopeOf } from './fingerprint';

/**
 * The canonical JSON this package wrote itself until it moved to the `canonicalize` package, kept
 * verbatim as the reference: a fingerprint stored by a server running the old code must still match
 * on the new one (a rolling deploy), or in-flight keys would turn into `idempotency_key_reused`.
 */
function canonicalJsonBeforeThePackage(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJsonBeforeThePackage(item)).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .sort()
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .map(
      (key) =>
        `${JSON.stringify(key)}:${canonicalJsonBeforeThePackage((value as Record<string, unknown>)[key])}`,
    );
  return `{${entries.join(',')}}`;
}

/** Strings of any UTF-16 code units, lone surrogates included (JSON.parse makes those from `\ud800`). */
const anyCodeUnits = fc.string({ unit: fc.nat(0xffff).map((unit) => String.fromCharCode(unit)) });
const { json: anyJson } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    anyCodeUnits,
    fc.array(tie('json')),
    fc.dictionary(anyCodeUnits, tie('json')),
  ),
}));

describe('fingerprint', () => {
  it('is the same for the same JSON with keys in another order and other whitespace', () => {
    const a = JSON.parse('{"amount": 100, "split": {"type":"equal","between":["a","b"]}, "groupId":"g"}');
    const b = JSON.parse('{"groupId":"g","split":{"between":["a","b"],"type":"equal"},"amount":100}');
    expect(fingerprintOf('POST', a)).toBe(fingerprintOf('POST', b));
    expect(canonicalJson(a)).toBe(
      '{"amount":100,"groupId":"g","split":{"between":["a","b"],"type":"equal"}}',
    );
  });

  it('differs for another method, another value or another array order', () => {
    const body = { amount: 100, between: ['a', 'b'] };
    expect(fingerprintOf('PUT', body)).not.toBe(fingerprintOf('POST', body));
    expect(fingerprintOf('POST', { ...body, amount: 101 })).not.toBe(fingerprintOf('POST', body));
    expect(fingerprintOf('POST', { ...body, between: ['b', 'a'] })).not.toBe(fingerprintOf('POST', body));
    expect(fingerprintOf('DELETE', undefined)).not.toBe(fingerprintOf('DELETE', {}));
  });

  it('canonical JSON parses back to the same value for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('is byte for byte the canonical JSON of the code before the canonicalize package, for any JSON value', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), anyJson), (value) => {
        expect(canonicalJson(value)).toBe(canonicalJsonBeforeThePackage(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the fingerprints an older server stored', () => {
    const body = {
      groupId: 'grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC',
      description: 'Dîner ☕ 🍕',
      amount: 120000,
      currency: 'INR',
      paidBy: 'usr_a',
      split: {
        type: 'exact',
        shares: [
          { userId: 'usr_b', amount: 60000 },
          { userId: 'usr_a', amount: 60000 },
        ],
      },
      occurredAt: '2026-11-25T10:00:00.000Z',
      note: null,
      tags: [],
      ratio: -0.5,
      big: 1e21,
    };
    // Computed by the code before the package.
    expect(fingerprintOf('post', body)).toBe(
      'ca044cbc7d3a68cdfaa530b0aefdba3401d148da7c7f79cc616d4a010ac696f8',
    );
    expect(fingerprintOf('DELETE', undefined)).toBe(
      'd8ad8056c4645ee4f04486aa235d532985c0f90423d4cece1669519ed9cd36e4',
    );
  });

  it('keeps scopes of different users, keys or paths apart', () => {
    const base = scopeOf('usr_a', 'k1', '/v1/expenses');
    expect(scopeOf('usr_b', 'k1', '/v1/expenses')).not.toBe(base);
    expect(scopeOf('usr_a', 'k2', '/v1/expenses')).not.toBe(base);
    expect(scopeOf('usr_a', 'k1', '/v1/settlements')).not.toBe(base);
    expect(scopeOf('usr_a', 'k1', '/v1/expenses')).toBe(base);
  });

  it('fingerprints a body holding a number JSON cannot hold (1e400 parsed) as JSON.stringify writes it', () => {
    const parsed = JSON.parse('{"amount":1e400,"b":[1e400]}') as unknown;
    expect(canonicalJson(parsed)).toBe('{"amount":null,"b":[null]}');
    expect(fingerprintOf('POST', parsed)).toBe(fingerprintOf('POST', { amount: null, b: [null] }));
  });
});
