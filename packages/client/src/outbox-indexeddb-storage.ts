import { TallyError } from './errors.js';
import type { OutboxEntry, OutboxStorage } from './outbox-types.js';

// The part of the IndexedDB API the storage uses, declared here: the SDK compiles without the DOM library too.
type IdbRequest<T> = {
  result: T;
  error: unknown;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
};
type IdbOpenRequest = IdbRequest<IdbDatabase> & {
  onupgradeneeded: (() => void) | null;
  onblocked: (() => void) | null;
};
type IdbObjectStore = {
  put(value: unknown): IdbRequest<unknown>;
  delete(key: string): IdbRequest<unknown>;
  getAll(): IdbRequest<unknown[]>;
};
type IdbTransaction = {
  objectStore(name: string): IdbObjectStore;
  oncomplete: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  error: unknown;
};
type IdbDatabase = {
  objectStoreNames: { contains(name: string): boolean };
  createObjectStore(name: string, options: { keyPath: string }): unknown;
  transaction(
    store: string,
    mode: 'readonly' | 'readwrite',
    options?: { durability?: 'strict' },
  ): IdbTransaction;
  close(): void;
};
/** `indexedDB` (the browser's `IDBFactory`), or a polyfill of it. */
export type IndexedDbFactoryLike = { open(name: string, version?: number): IdbOpenRequest };

const STORE = 'entries';

/**
 * An outbox in IndexedDB, for browsers: one record per entry in the object store `entries` of the
 * database `name`. Each change is one `readwrite` transaction with `durability: 'strict'` (flushed
 * to disk before it completes); transactions on one store run in the order they were made.
 */
export function indexedDbOutbox(
  options: { name?: string; indexedDB?: IndexedDbFactoryLike } = {},
): OutboxStorage {
  const name = options.name ?? 'tally-outbox';
  let opened: Promise<IdbDatabase> | undefined;

  const open = (): Promise<IdbDatabase> => {
    opened ??= new Promise<IdbDatabase>((resolve, reject) => {
      const factory =
        options.indexedDB ?? (globalThis as unknown as { indexedDB?: IndexedDbFactoryLike }).indexedDB;
      if (!factory) {
        reject(new TallyError('indexedDbOutbox: no indexedDB in this environment'));
        return;
      }
      const request = factory.open(name, 1);
      request.onupgradeneeded = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'id' });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new TallyError(`indexedDbOutbox: database ${name} is blocked`));
    });
    return opened;
  };

  const write = async (apply: (store: IdbObjectStore) => void): Promise<void> => {
    const db = await open();
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction(STORE, 'readwrite', { durability: 'strict' });
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error ?? new TallyError('indexedDbOutbox: transaction aborted'));
      apply(tx.objectStore(STORE));
    });
  };

  return {
    async load() {
      const db = await open();
      return new Promise<OutboxEntry[]>((resolve, reject) => {
        const request = db.transaction(STORE, 'readonly').objectStore(STORE).getAll();
        request.onsuccess = () => resolve(request.result as OutboxEntry[]);
        request.onerror = () => reject(request.error);
      });
    },
    put(entry) {
      // A structured clone of plain JSON, so the stored record never shares objects with the caller.
      const record = JSON.parse(JSON.stringify(entry)) as OutboxEntry;
      return write((store) => {
        store.put(record);
      });
    },
    remove(id) {
      return write((store) => {
        store.delete(id);
      });
    },
  };
}
