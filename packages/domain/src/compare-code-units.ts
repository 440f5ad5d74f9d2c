/**
 * Orders strings by UTF-16 code units. Used instead of `localeCompare` wherever an order decides
 * money (debt simplification ties, the order balance rows are written in), because a locale-aware
 * order can differ between machines and Node versions and the results must not.
 */
export function compareCodeUnits(a: string, b: string): number {
  if (a < b) return -1;
  if (a > b) return 1;
  return 0;
}
