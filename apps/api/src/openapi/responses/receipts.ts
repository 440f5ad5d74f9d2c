import type { JsonSchema } from '../joi-to-json-schema';
import { closed, id, timestamp } from './common';

const receiptFields: Record<string, JsonSchema> = {
  expenseId: id('exp', 'Expense'),
  mediaType: {
    type: 'string',
    enum: ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'],
    description: 'What is stored (by the upload’s content; a HEIC upload is stored as JPEG)',
  },
  bytes: { type: 'integer', minimum: 1, description: 'The stored file’s size' },
  width: { type: ['integer', 'null'], minimum: 1, description: 'Pixels, as stored; null for a PDF' },
  height: { type: ['integer', 'null'], minimum: 1, description: 'Pixels, as stored; null for a PDF' },
  hasThumbnail: {
    type: 'boolean',
    description: 'An image has a WebP thumbnail (320 px at most); a PDF none',
  },
  sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'SHA-256 (hex) of the stored file' },
  uploadedBy: id('usr', 'User'),
  uploadedAt: timestamp,
};

const link = (what: string): JsonSchema => ({
  type: 'string',
  pattern: '^/v1/receipt-files/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$',
  description: `${what}: a path on this API, good until \`urlExpiresAt\` (\`RECEIPT_LINK_TTL_SECONDS\`), no token needed`,
});

/** Receipts on file (API.md §16). */
export const receiptSchemas: Record<string, JsonSchema> = {
  Receipt: closed(receiptFields, 'A receipt as `expense.receipt_changed` carries it (no links)'),
  ReceiptWithLinks: closed({
    ...receiptFields,
    url: link('The file'),
    thumbnailUrl: { ...link('The thumbnail'), type: ['string', 'null'] },
    urlExpiresAt: timestamp,
  }),
};
