/** One stored file: its bytes and the media type it is served with. */
export type StoredFile = { bytes: Buffer; contentType: string };

/**
 * Where receipt files live (API.md §16): the port every adapter implements, and the contract
 * suite (`test/component/receipt-storage-contract.test.ts`) runs over each. Keys are
 * `/`-separated paths of safe characters (`[A-Za-z0-9._-]` segments), never chosen by a client.
 */
export type ReceiptStorage = {
  /** Stores `bytes` under `key`, replacing what was there (the same key is the same content). */
  put(key: string, file: StoredFile): Promise<void>;
  /** The file under `key`, or undefined. */
  get(key: string): Promise<StoredFile | undefined>;
  /** Removes `key`; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Every key that starts with `prefix`, in no promised order. */
  list(prefix: string): Promise<string[]>;
};

const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** Throws on a key an adapter must never be handed (`..`, an empty or odd segment). */
export function checkStorageKey(key: string): string {
  const segments = key.split('/');
  if (segments.some((s) => !SEGMENT.test(s) || s === '.' || s === '..')) {
    throw new Error(`receipt storage: bad key ${JSON.stringify(key)}`);
  }
  return key;
}

/** Removes every key under `prefix` (an expense's files): list, then delete one by one. */
export async function deletePrefix(storage: ReceiptStorage, prefix: string): Promise<number> {
  const keys = await storage.list(prefix);
  for (const key of keys) await storage.delete(key);
  return keys.length;
}
