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
  }
}
