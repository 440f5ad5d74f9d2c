/** PostgreSQL's unique_violation, the same from pg and PGlite. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

export const toIso = (value: Date | string): string => new Date(value).toISOString();
