import { itemizedParties } from './itemized-split';
import type { SplitInput } from './types';

/**
 * The participant ids of a split in `between` order, whatever its type, so callers can check
 * membership (`not_a_member`) without switching on the split type themselves.
 */
export function userIdsOf(split: SplitInput): string[] {
  switch (split.type) {
    case 'equal':
      return [...split.between];
    case 'exact':
      return split.between.map((entry) => entry.userId);
    case 'percent':
      return split.between.map((entry) => entry.userId);
    case 'shares':
      return split.between.map((entry) => entry.userId);
    case 'items':
      return itemizedParties(split).map((party) => party.userId);
  }
}

/**
 * The participants of a split, each with the path (under `prefix`, e.g. `split`) where the request
 * names it: `between[i]` (equal), `between[i].userId`, or its first place in an item.
 */
export function splitParties(split: SplitInput, prefix: string): { userId: string; path: string }[] {
  if (split.type === 'items') {
    return itemizedParties(split).map((p) => ({ userId: p.userId, path: p.path.replace(/^split/, prefix) }));
  }
  return userIdsOf(split).map((userId, i) => ({
    userId,
    path: split.type === 'equal' ? `${prefix}.between[${i}]` : `${prefix}.between[${i}].userId`,
  }));
}
