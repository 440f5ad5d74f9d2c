/**
 * The records of a CSV file held as one string (RFC 4180: quoted fields, `""` inside quotes, CRLF or
 * LF line ends), produced one at a time, and the problems that refuse a file whole.
 */

/** The file is not a Splitwise export: answered `422 malformed_file` naming `line`, nothing written. */
export class MalformedFile extends Error {
  override name = 'MalformedFile';
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`Line ${line}: ${reason}`);
  }
}

/** A record with more fields than allowed: the header's count for a row, the bound for the header. */
export class TooManyFields extends MalformedFile {
  override name = 'TooManyFields';
  constructor(
    line: number,
    readonly max: number,
  ) {
    super(line, `more than ${max} fields where the header has ${max}`);
  }
}

/** The file goes over a stated bound (API.md §9.1): `422 limit_exceeded`, nothing written. */
export class OverLimit extends Error {
  override name = 'OverLimit';
  constructor(
    /** `importRows` or `importPeople`. */
    readonly limit: 'importRows' | 'importPeople',
    readonly max: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * The file is read in slices, yielding to the event loop between them (so that other requests are
 * served while a large file is checked): a slice ends after this many records…
 */
export const PARSE_SLICE_RECORDS = 200;
/** …or once it has read this many characters of the file, whichever comes first. */
export const PARSE_SLICE_CHARS = 64 * 1024;

/** Lets the event loop run what is waiting (I/O, timers, other requests) before the next slice. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** One CSV record, the 1-based line it starts on, and the offset in the text just after it. */
export type CsvRecord = { line: number; fields: string[]; end: number };

const QUOTE = 0x22;
/** Where an unquoted field ends (or a quote inside it makes the file malformed). */
const UNQUOTED_END = /[,\r\n"]/g;

const newlinesIn = (text: string): number => {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
};

/**
 * The records of `text`, in order. A blank line is a record of one empty field. A record with more
 * than `limits.maxFields` fields (read before each record: the caller sets it once it knows the
 * header) is `TooManyFields` as soon as the one field too many is read, so a line of a million
 * commas is refused without a million-entry list.
 */
export function* csvRecords(
  text: string,
  limits: { maxFields: number } = { maxFields: Number.POSITIVE_INFINITY },
): Generator<CsvRecord> {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a byte-order mark, as spreadsheet tools write
  let line = 1;
  const n = text.length;
  while (i < n) {
    const start = line;
    const fields: string[] = [];
    for (;;) {
      let value: string;
      if (text.charCodeAt(i) === QUOTE) {
        i++;
        const parts: string[] = [];
        for (;;) {
          const close = text.indexOf('"', i);
          if (close < 0) throw new MalformedFile(start, 'a quoted field is never closed');
          const part = text.slice(i, close);
          line += newlinesIn(part);
          parts.push(part);
          if (text.charCodeAt(close + 1) === QUOTE) {
            parts.push('"');
            i = close + 2;
            continue;
          }
          i = close + 1;
          break;
        }
        value = parts.length === 1 ? (parts[0] as string) : parts.join('');
        const after = text[i];
        if (i < n && after !== ',' && after !== '\n' && after !== '\r') {
          throw new MalformedFile(line, 'text after the closing quote of a field');
        }
      } else {
        UNQUOTED_END.lastIndex = i;
        const found = UNQUOTED_END.exec(text);
        const end = found ? found.index : n;
        if (found?.[0] === '"') throw new MalformedFile(line, 'a quote inside an unquoted field');
        value = text.slice(i, end);
        i = end;
      }
      fields.push(value);
      if (fields.length > limits.maxFields) throw new TooManyFields(start, limits.maxFields);
      if (i < n && text[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    line++;
    yield { line: start, fields, end: i };
  }
}
