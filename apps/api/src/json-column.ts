/** A json/jsonb column's value: pg parses it, the embedded PGlite driver may hand it over as text. */
export const jsonColumn = <T>(value: T | string): T =>
  typeof value === 'string' ? (JSON.parse(value) as T) : value;
