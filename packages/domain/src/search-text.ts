/**
 * The text search compares normalized text (API.md §5.1): lower-cased, compatibility-decomposed
 * (NFKD) and stripped of combining marks, so `Café`, `CAFE` and `café` are one word and `ﬁ` is
 * `fi`. Lower-casing comes first because it can itself produce a combining mark (`İ` → `i̇`).
 * The stored search text of an expense and the words of a query go through this same function,
 * which is what makes the search exact: a query word matches when it is a substring.
 */
export function normalizeSearchText(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '');
}

/**
 * An expense's stored search text: its description and category, normalized, on two lines. A
 * query word never holds whitespace, so it can never match across the two.
 */
export function expenseSearchText(description: string, category: string | null | undefined): string {
  return `${normalizeSearchText(description)}\n${normalizeSearchText(category ?? '')}`;
}

/** The words of a search query: normalized, split on whitespace, empty ones dropped. */
export function searchWordsOf(query: string): string[] {
  return normalizeSearchText(query)
    .split(/\s+/u)
    .filter((word) => word.length > 0);
}
