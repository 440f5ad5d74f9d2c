import fc from 'fast-check';
import { canonicalJson, fingerprintOf, scopeOf } from './fingerprint';

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

  it('keeps scopes of different users, keys or paths apart', () => {
    const base = scopeOf('usr_a', 'k1', '/v1/expenses');
    expect(scopeOf('usr_b', 'k1', '/v1/expenses')).not.toBe(base);
    expect(scopeOf('usr_a', 'k2', '/v1/expenses')).not.toBe(base);
    expect(scopeOf('usr_a', 'k1', '/v1/settlements')).not.toBe(base);
    expect(scopeOf('usr_a', 'k1', '/v1/expenses')).toBe(base);
  });
});
