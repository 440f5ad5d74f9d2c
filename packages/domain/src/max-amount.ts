/** The largest amount, in minor units, that API.md allows for an expense or a settlement. */
export const MAX_AMOUNT = 1_000_000_000_000;
