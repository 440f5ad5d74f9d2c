import { clipCodePoints, codePointLength, hasLoneSurrogate, textProblem } from './text';

describe('textProblem: the one rule for user text', () => {
  const name = (text: string, max = 5) => textProblem(text, 'name', { min: 1, max });
  const free = (text: string, max = 5) => textProblem(text, 'free', { max });

  it('counts code points: an emoji, a surrogate pair, is one', () => {
    expect(codePointLength('😀😀')).toBe(2);
    expect(name('😀'.repeat(5))).toBeUndefined();
    expect(name('😀'.repeat(6))).toBe('tooLong');
    // a combining mark is a code point of its own
    expect(codePointLength('e\u0301')).toBe(2);
  });

  it('refuses lone surrogates, high or low, in both kinds', () => {
    for (const text of ['a\ud800b', '\udc00', 'x\ud83d']) {
      expect({ text, lone: hasLoneSurrogate(text), name: name(text), free: free(text) }).toEqual({
        text,
        lone: true,
        name: 'wellFormed',
        free: 'wellFormed',
      });
    }
    expect(hasLoneSurrogate('😀')).toBe(false);
  });

  it('names: no C0, DEL, C1, line separators or bidi controls', () => {
    for (const c of [
      '\u0000',
      '\u0007',
      '\t',
      '\n',
      '\r',
      '\u001b',
      '\u007f',
      '\u0085',
      '\u009f',
      '\u2028',
      '\u2029',
    ]) {
      expect({ c, problem: name(`a${c}b`) }).toEqual({ c, problem: 'control' });
    }
    for (const c of ['\u202a', '\u202e', '\u2066', '\u2069']) {
      expect({ c, problem: name(`a${c}b`) }).toEqual({ c, problem: 'bidi' });
    }
    // marks that are not controls: right-to-left text, zero-width joiners of emoji, combining marks
    expect([name('שלום'), name('👩‍💻'), name('é'), name('\u200f')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('free text keeps tab and line feed, refuses every other control', () => {
    expect(free('a\tb\nc')).toBeUndefined();
    for (const c of ['\u0000', '\u0007', '\r', '\u000b', '\u000c', '\u001b', '\u007f', '\u0085']) {
      expect({ c, problem: free(`a${c}`) }).toEqual({ c, problem: 'control' });
    }
    // bidi controls are a display matter in a text of several lines, not refused
    expect(free('\u202eab')).toBeUndefined();
  });

  it('clipCodePoints never splits a surrogate pair', () => {
    expect(clipCodePoints('ab😀c', 3)).toBe('ab😀');
    expect(clipCodePoints('ab😀c', 2)).toBe('ab');
    expect(clipCodePoints('abc', 5)).toBe('abc');
  });
});
