import { ulid } from 'ulid';

export type IdPrefix = 'usr' | 'grp' | 'exp' | 'stl' | 'evt' | 'rtk';

/** Opaque, type-prefixed, time-sortable identifiers (`exp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC`). */
export const newId = (prefix: IdPrefix): string => `${prefix}_${ulid()}`;
