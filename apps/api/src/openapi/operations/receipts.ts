import { RECEIPT_MAX_PIXELS } from '../../receipts/process-receipt';
import { UPLOAD_CONTENT_TYPES } from '../../receipts/read-upload';
import { noContent } from './shapes';
import type { Operation } from './types';

/** Receipts on file (API.md §16). */
export const receiptsOperations: Operation[] = [
  {
    method: 'put',
    path: '/v1/expenses/{expenseId}/receipt',
    operationId: 'putExpenseReceipt',
    tag: 'Receipts',
    summary: 'Attach a receipt to an expense (or replace it)',
    description:
      'The body is the file itself (not JSON): a JPEG, PNG, WebP or HEIC image or a PDF, known by its bytes ' +
      '(the `Content-Type` must be one of the listed types but is not believed: a file that is none of the five is ' +
      '`415`). At most `RECEIPT_MAX_BYTES` (10 MiB by default; more is `413` naming `receiptBytes`). An image is ' +
      `decoded (at most ${RECEIPT_MAX_PIXELS} pixels, else \`422 limit_exceeded\` \`receiptPixels\`; an undecodable ` +
      'one is `422 receipt_unreadable`), turned upright, scaled to 4096 px at most and encoded again without any ' +
      'metadata (EXIF and its location, XMP, IPTC are gone); a HEIC is stored as JPEG; a WebP thumbnail is made. ' +
      'A PDF is stored as it is, without a thumbnail. Replaces the expense’s receipt; appends ' +
      '`expense.receipt_changed`. A retry with the same `Idempotency-Key` and file is answered once and stores ' +
      'the file once (files are named by their SHA-256). `503` (with `Retry-After`) when this process is decoding ' +
      'as many images as it takes at once. See API.md §16.',
    binaryBody: UPLOAD_CONTENT_TYPES,
    idempotency: 'required',
    success: [
      { status: 200, description: 'The receipt, with its download links', schema: 'ReceiptWithLinks' },
    ],
    errors: ['payload_too_large', 'unsupported_media_type', 'receipt_unreadable', 'limit_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/expenses/{expenseId}/receipt',
    operationId: 'getExpenseReceipt',
    tag: 'Receipts',
    summary: 'An expense’s receipt and its download links',
    description:
      'For members of the expense’s group: the receipt with links to the file and its thumbnail, good for ' +
      '`RECEIPT_LINK_TTL_SECONDS` (300 s by default); read it again for fresh links. `404` when the expense has ' +
      'no receipt, is deleted, or is in a group the caller is not in.',
    success: [{ status: 200, description: 'The receipt', schema: 'ReceiptWithLinks' }],
  },
  {
    method: 'delete',
    path: '/v1/expenses/{expenseId}/receipt',
    operationId: 'deleteExpenseReceipt',
    tag: 'Receipts',
    summary: 'Remove an expense’s receipt',
    description:
      'Removes the receipt and its files; appends `expense.receipt_changed` with `receipt: null`. No receipt: ' +
      '`204` again, no event.',
    idempotency: 'required',
    success: noContent('Removed'),
  },
  {
    method: 'get',
    path: '/v1/receipt-files/{token}',
    operationId: 'downloadReceiptFile',
    tag: 'Receipts',
    summary: 'Download a receipt file through a signed link',
    description:
      'A link from `GET /v1/expenses/{expenseId}/receipt` (or the account export): no token needed, the link is ' +
      'the permission. A link that was altered or made up is `404`; one past its expiry is `403 forbidden`; a file ' +
      'replaced or deleted since is `404`. Answers `Cache-Control: private, max-age` up to the expiry, ' +
      '`X-Content-Type-Options: nosniff`, and a PDF as an attachment.',
    public: true,
    success: [
      {
        status: 200,
        description: 'The file',
        // A re-encoded image (HEIC becomes JPEG), a thumbnail (WebP) or a PDF as it was sent.
        contentType: ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'],
        schema: { type: 'string', format: 'binary' },
      },
    ],
    errors: ['forbidden'],
  },
];
