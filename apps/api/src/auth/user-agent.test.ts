import { MAX_USER_AGENT_LENGTH, userAgentOf } from './sessions';

/** What Node makes of a header sent as these UTF-8 bytes: one character per byte (ISO-8859-1). */
const asNodeReadsIt = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

describe('userAgentOf: the user agent a session keeps (API.md §2.3)', () => {
  it('decodes the header bytes as UTF-8', () => {
    expect(userAgentOf(asNodeReadsIt('Tally/2.0 (Zoë’s iPhone; 東京) 🚀'))).toBe(
      'Tally/2.0 (Zoë’s iPhone; 東京) 🚀',
    );
    expect(userAgentOf('Mozilla/5.0 (X11; Linux x86_64)')).toBe('Mozilla/5.0 (X11; Linux x86_64)');
  });

  it('replaces bytes that are not UTF-8 with U+FFFD, and takes an already decoded string as it is', () => {
    expect(userAgentOf('Caf\u00e9 client')).toBe('Caf\uFFFD client');
    expect(userAgentOf('Zoë’s phone')).toBe('Zoë’s phone');
  });

  it('drops controls, bidi overrides and lone surrogates', () => {
    expect(userAgentOf(asNodeReadsIt('a\u0007b\u001bc\td\u0085e\u007ff'))).toBe('a b c d e f');
    expect(userAgentOf('evil\u202Egnp.exe\u2066x\u2069')).toBe('evilgnp.exex');
    expect(userAgentOf('a\uD800b\uDFFFc')).toBe('a\uFFFDb\uFFFDc');
    expect(() => JSON.parse(JSON.stringify(userAgentOf('x\uD83D')))).not.toThrow();
  });

  it(`keeps at most ${MAX_USER_AGENT_LENGTH} code points, never half of a pair`, () => {
    const emoji = userAgentOf(asNodeReadsIt('😀'.repeat(300)));
    expect(Array.from(emoji ?? '')).toHaveLength(MAX_USER_AGENT_LENGTH);
    expect(emoji).toBe('😀'.repeat(MAX_USER_AGENT_LENGTH));
    expect(userAgentOf('x'.repeat(1000))).toHaveLength(MAX_USER_AGENT_LENGTH);
  });

  it('is null without one, or with nothing but spaces and controls', () => {
    expect(userAgentOf(undefined)).toBeNull();
    expect(userAgentOf('   ')).toBeNull();
    expect(userAgentOf('\u0000\u0001')).toBeNull();
  });
});
