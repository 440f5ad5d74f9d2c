import { TallyError } from './errors.js';
import type { OutboxEntry, OutboxStorage } from './outbox-types.js';

const copy = (entry: OutboxEntry): OutboxEntry => JSON.parse(JSON.stringify(entry)) as OutboxEntry;

/** Keeps the entries in memory: they live as long as the process (tests, or writes that need not survive). */
export class MemoryOutboxStorage implements OutboxStorage {
  private readonly entries = new Map<string, OutboxEntry>();

  async load(): Promise<OutboxEntry[]> {
    return [...this.entries.values()].map(copy);
  }
  async put(entry: OutboxEntry): Promise<void> {
    this.entries.set(entry.id, copy(entry));
  }
  async remove(id: string): Promise<void> {
    this.entries.delete(id);
  }
}

/** Reads and writes the whole outbox as one string (a file, one AsyncStorage key, an MMKV value, …). */
export type SnapshotBackend = {
  /** The last text written, or null when there is none yet. */
  read(): Promise<string | null>;
  /** Replaces the text; the change must be durable, and all or nothing, when the promise resolves. */
  write(text: string): Promise<void>;
};

type Snapshot = { version: 1; entries: OutboxEntry[] };

/**
 * An {@link OutboxStorage} that keeps every entry in one snapshot, written whole after each change.
 * Changes made while a write is running go out together in the next write (group commit); each
 * `put`/`remove` resolves once a write that includes it has finished.
 */
export function snapshotOutboxStorage(backend: SnapshotBackend): OutboxStorage {
  let entries: Map<string, OutboxEntry> | undefined;
  let loading: Promise<Map<string, OutboxEntry>> | undefined;
  /** Changes since the last write started, waiting for the next one. */
  let waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  let writing = false;

  const loaded = (): Promise<Map<string, OutboxEntry>> => {
    if (entries) return Promise.resolve(entries);
    loading ??= (async () => {
      const text = await backend.read();
      const map = new Map<string, OutboxEntry>();
      if (text !== null && text !== '') {
        let snapshot: Snapshot;
        try {
          snapshot = JSON.parse(text) as Snapshot;
        } catch (cause) {
          // Never start over silently: the entries are writes the user made.
          throw new TallyError('the outbox snapshot is not valid JSON', { cause });
        }
        if (snapshot?.version !== 1 || !Array.isArray(snapshot.entries)) {
          throw new TallyError('the outbox snapshot has an unknown format');
        }
        for (const entry of snapshot.entries) map.set(entry.id, entry);
      }
      entries = map;
      return map;
    })();
    return loading;
  };

  const flush = async (): Promise<void> => {
    if (writing) return;
    writing = true;
    try {
      while (waiting.length > 0) {
        const batch = waiting;
        waiting = [];
        const map = await loaded();
        const snapshot: Snapshot = { version: 1, entries: [...map.values()] };
        try {
          await backend.write(JSON.stringify(snapshot));
          for (const w of batch) w.resolve();
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      writing = false;
    }
  };

  const change = async (apply: (map: Map<string, OutboxEntry>) => void): Promise<void> => {
    apply(await loaded());
    const done = new Promise<void>((resolve, reject) => waiting.push({ resolve, reject }));
    void flush();
    return done;
  };

  return {
    async load() {
      return [...(await loaded()).values()].map(copy);
    },
    put(entry) {
      const stored = copy(entry);
      return change((map) => map.set(stored.id, stored));
    },
    remove(id) {
      return change((map) => {
        map.delete(id);
      });
    },
  };
}

/** The part of React Native's AsyncStorage (`@react-native-async-storage/async-storage`) the outbox uses. */
export type AsyncStorageLike = {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
};

/**
 * An outbox in React Native's AsyncStorage (or anything with the same `getItem`/`setItem`): the whole
 * outbox under one key, rewritten after each change (one `setItem` replaces a value all at once).
 *
 *   import AsyncStorage from '@react-native-async-storage/async-storage';
 *   const tally = new TallyClient({ baseUrl, outbox: { storage: asyncStorageOutbox(AsyncStorage) } });
 */
export function asyncStorageOutbox(storage: AsyncStorageLike, key = 'tally.outbox'): OutboxStorage {
  return snapshotOutboxStorage({
    read: () => storage.getItem(key),
    write: (text) => storage.setItem(key, text),
  });
}
