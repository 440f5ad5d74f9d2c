import { MAX_AMOUNT } from '@tally/domain';
import type { JsonSchema } from '../joi-to-json-schema';

/**
 * Building blocks of the response schemas. Responses are not validated with joi, so their schemas are
 * written by hand from the TypeScript types of the services and from API.md.
 */

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export const id = (prefix: string, what: string): JsonSchema => ({
  type: 'string',
  description: `${what} id: \`${prefix}_\` followed by a ULID. Opaque: do not parse it.`,
  examples: [`${prefix}_01JD3Q8Z4T6Y5W2N8K1M0PX7RC`],
});
export const timestamp: JsonSchema = {
  type: 'string',
  format: 'date-time',
  description: 'RFC 3339 UTC timestamp',
  examples: ['2026-11-25T10:00:00.000Z'],
};
/** An import's id: `imp_` and the SHA-256 of its group and file (API.md §6b). */
export const importId: JsonSchema = {
  type: 'string',
  pattern: '^imp_[0-9a-f]{64}$',
  description: 'Import id: `imp_` and 64 hex digits, derived from the group and the file',
};
export const amount: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_AMOUNT,
  description: 'Integer count of minor units (paise, cents, yen)',
  examples: [100000],
};
export const signedAmount: JsonSchema = {
  type: 'integer',
  description: 'Minor units; positive: the group owes this member, negative: the member owes the group',
};
export const currency: JsonSchema = ref('Currency');
export const localDate: JsonSchema = {
  type: 'string',
  format: 'date',
  description: 'A local calendar date, YYYY-MM-DD',
  examples: ['2027-01-31'],
};
export const version: JsonSchema = {
  type: 'integer',
  minimum: 1,
  description: 'Incremented by every change; the ETag is `"v<version>"`',
};

export const object = (properties: Record<string, JsonSchema>, required: string[], description?: string) => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  required,
  additionalProperties: false,
});

/** An object schema whose every property is required. */
export const closed = (properties: Record<string, JsonSchema>, description?: string): JsonSchema =>
  object(properties, Object.keys(properties), description);

/** `{ data: [...], nextCursor }`: one page of a cursor-paginated list. */
export function pageOf(itemSchema: string): JsonSchema {
  return closed({
    data: { type: 'array', items: ref(itemSchema) },
    nextCursor: {
      type: ['string', 'null'],
      description: 'Pass as `?cursor=` for the next page; null on the last page',
    },
  });
}
