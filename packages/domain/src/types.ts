/**
 * Shapes shared by the money functions of this package. They mirror API.md §4–§6 so the API layer
 * can pass request bodies through after schema validation without reshaping them.
 */

/** How an expense is divided; `between` lists group members, each at most once, at least one. */
export type SplitInput =
  | { type: 'equal'; between: string[] }
  | { type: 'exact'; between: { userId: string; amount: number }[] }
  | { type: 'percent'; between: { userId: string; percent: number }[] }
  | { type: 'shares'; between: { userId: string; shares: number }[] }
  | ItemsSplit;

/**
 * An itemized receipt: each item shared by some people (equally: ids; or by `{userId, shares}`),
 * `tax` and `tip` spread over the items in proportion (API.md §4).
 */
export type ItemsSplit = {
  type: 'items';
  items: { description?: string; amount: number; between: (string | { userId: string; shares: number })[] }[];
  tax?: number;
  tip?: number;
};

/** One member's part of what was paid, in minor units. */
export type Payer = { userId: string; amount: number };

/** What one participant owes for an expense, in minor units. */
export type Share = { userId: string; owed: number };

/** One payment that the simplified settle-up plan asks for. */
export type Transfer = { from: string; to: string; amount: number };

/** A member's net in one currency: positive means the group owes them. */
export type MemberNet = { userId: string; net: number };

/** A change to one member's net in one currency. */
export type BalanceDelta = { currency: string; userId: string; delta: number };
