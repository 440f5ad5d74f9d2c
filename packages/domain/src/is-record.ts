/** Narrows an untrusted value to an object whose fields can be read, so inputs can be checked field by field. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
