import type { JsonSchema } from '../joi-to-json-schema';
import { closed, id, ref, timestamp } from './common';

const keyFields: Record<string, JsonSchema> = {
  id: id('key', 'API key'),
  name: { type: 'string', description: 'What the key is for, as given' },
  scopes: {
    type: 'array',
    items: { type: 'string', enum: ['read', 'write'] },
    description: '`read`: GET and HEAD; `write`: every other method',
  },
  prefix: {
    type: 'string',
    pattern: '^tally_sk_[0-9A-Za-z]{6}$',
    description: 'The first characters of the secret, to recognise it: not enough to use it',
    examples: ['tally_sk_4fQ9xZ'],
  },
  createdAt: timestamp,
  expiresAt: { type: ['string', 'null'], format: 'date-time', description: 'Null: until revoked' },
  lastUsedAt: {
    type: ['string', 'null'],
    format: 'date-time',
    description:
      'The last request with the key, to the minute (written at most once a minute); null: never used',
  },
};

const ApiKey: JsonSchema = closed(keyFields, 'An API key (API.md §2.6); never its secret.');
const CreatedApiKey: JsonSchema = closed(
  {
    ...keyFields,
    secret: {
      type: 'string',
      pattern: '^tally_sk_[0-9A-Za-z]{49}$',
      description:
        'The key itself, shown only in this answer: `tally_sk_`, 43 random base62 characters, and their CRC-32 in 6 base62 characters',
    },
  },
  'A new API key with its secret (shown once).',
);
const ApiKeyList: JsonSchema = closed({ data: { type: 'array', items: ref('ApiKey') } });

/** API keys (API.md §2.6). */
export const apiKeySchemas: Record<string, JsonSchema> = { ApiKey, CreatedApiKey, ApiKeyList };
