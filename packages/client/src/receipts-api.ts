import type { CallOptions, HttpClient, WriteOptions } from './http-client.js';
import type { Receipt } from './types.js';

/** A file to upload: its bytes (a `Blob`/`File` from a file input, or bytes), and its media type. */
export type ReceiptFile = { bytes: Uint8Array | Blob; contentType?: string };

const receiptPath = (expenseId: string) => `/v1/expenses/${encodeURIComponent(expenseId)}/receipt`;

/**
 * Receipts on file (API.md §16): one image or PDF per expense. Uploads carry an `Idempotency-Key`
 * (one per call, reused by its retries). The links in a `Receipt` are good for a few minutes: read
 * the receipt again for fresh ones; `fileUrl` makes one absolute for an `<img src>`.
 */
export class ReceiptsApi {
  private readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  /**
   * `PUT /v1/expenses/{expenseId}/receipt`: JPEG, PNG, WebP, HEIC or PDF (the server reads what it is
   * from the bytes). `contentType` defaults to a `Blob`'s own type, else `application/octet-stream`.
   */
  async upload(expenseId: string, file: ReceiptFile | Blob, options: WriteOptions = {}): Promise<Receipt> {
    const given: ReceiptFile = isBlob(file) ? { bytes: file } : file;
    const blobType = isBlob(given.bytes) ? given.bytes.type : '';
    return (
      await this.http.request<Receipt>({
        ...options,
        method: 'PUT',
        path: receiptPath(expenseId),
        rawBody: {
          bytes: given.bytes,
          contentType: given.contentType || blobType || 'application/octet-stream',
        },
      })
    ).data;
  }

  /** `GET /v1/expenses/{expenseId}/receipt`: the receipt with fresh links (`NotFoundError` when none). */
  async get(expenseId: string, options: CallOptions = {}): Promise<Receipt> {
    return (await this.http.request<Receipt>({ ...options, method: 'GET', path: receiptPath(expenseId) }))
      .data;
  }

  /** `DELETE /v1/expenses/{expenseId}/receipt`: none is fine. */
  async delete(expenseId: string, options: WriteOptions = {}): Promise<void> {
    await this.http.request<undefined>({ ...options, method: 'DELETE', path: receiptPath(expenseId) });
  }

  /** A receipt link (`url`, `thumbnailUrl`) as an absolute URL on the client's API. */
  fileUrl(link: string): string {
    return this.http.urlOf(link);
  }
}

const isBlob = (value: unknown): value is Blob => typeof Blob !== 'undefined' && value instanceof Blob;
