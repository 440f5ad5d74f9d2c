/**
 * The one rule for text a user types (API.md §1 "Strings"), in two kinds:
 *
 * - a **name** (a user's, a group's, a member's, a category): one line of text; no control
 *   characters (C0 U+0000–U+001F, DEL U+007F, C1 U+0080–U+009F), no line or paragraph separator
 *   (U+2028, U+2029), no bidirectional embedding, override or isolate (U+202A–U+202E,
 *   U+2066–U+2069), which could make a name display as another;
 * - **free text** (descriptions, notes, comments): keeps line feeds (U+000A) and tabs (U+0009);
 *   any other control character is refused.
 *
 * Both are well-formed Unicode (a lone surrogate is refused, never replaced: PostgreSQL would store
 * U+FFFD while the event kept the surrogate) and are measured in code points (an emoji is one).
 * Text is stored as sent: no Unicode normalization.
 */
export type TextKind = 'name' | 'free';

/** Why a text breaks the rule; `undefined` when it keeps it. */
export type TextProblem = 'wellFormed' | 'control' | 'bidi' | 'tooShort' | 'tooLong';

/** A lone surrogate (with the `u` flag, a well-formed pair is one code point and does not match). */
const LONE_SURROGATE = /\p{Cs}/u;
/** Controls a name may not hold: C0, DEL, C1, and the line and paragraph separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const NAME_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;
/** Controls free text may not hold: as for names, but tab and line feed are kept. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const FREE_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;
/** Bidirectional embeddings, overrides and isolates. */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/u;

/** True when `text` holds a lone surrogate (not well-formed UTF-16, not encodable as UTF-8). */
export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

/** The length of `text` in Unicode code points (a surrogate pair counts once). */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * What, if anything, keeps `text` from being a `kind` of `min`–`max` code points. The checks run in
 * the order of the answer a user can act on: broken encoding, then forbidden characters, then length.
 */
export function textProblem(
  text: string,
  kind: TextKind,
  bounds: { min?: number; max: number },
): TextProblem | undefined {
  if (LONE_SURROGATE.test(text)) return 'wellFormed';
  if ((kind === 'name' ? NAME_CONTROL : FREE_CONTROL).test(text)) return 'control';
  if (kind === 'name' && BIDI_CONTROL.test(text)) return 'bidi';
  const length = codePointLength(text);
  if (length < (bounds.min ?? 0)) return 'tooShort';
  if (length > bounds.max) return 'tooLong';
  return undefined;
}

/**
 * The first `max` code points of `text` (for text cut to fit, such as an imported description): a
 * cut never splits a surrogate pair.
 */
export function clipCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  let n = 0;
  for (const c of text) {
    if (n++ === max) break;
    out += c;
  }
  return out;
}
