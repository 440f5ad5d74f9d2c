import type { OutboxEntry, OutboxSettled, OutboxStorage } from './outbox-types.js';

/** An entry as the outbox holds it in memory. */
export type LiveEntry = {
  entry: OutboxEntry;
  /** The first `put`; the entry is sent only after it. */
  durable: Promise<void>;
  settled: boolean;
  /** Failed attempts in a row in this process (for the backoff). */
  failures: number;
  retryAfterMs: number | undefined;
  /** Why the last attempt failed. */
  lastError: unknown;
  waiters: ((settled: OutboxSettled) => void)[];
};

function live(entry: OutboxEntry, durable: Promise<void>): LiveEntry {
  return {
    entry,
    durable,
    settled: false,
    failures: 0,
    retryAfterMs: undefined,
    lastError: undefined,
    waiters: [],
  };
}

/**
 * The outbox's unsettled entries, in `seq` order, kept in step with its {@link OutboxStorage}. The
 * memory side changes at once and the storage side is awaited, so the scheduler sees an entry the moment
 * it is made (and never sends it before its `put` is durable) and never sees it again once it settled.
 */
export class OutboxJournal {
  private entries: LiveEntry[] = [];
  private nextSeq = 1;

  private readonly storage: OutboxStorage;

  constructor(storage: OutboxStorage) {
    this.storage = storage;
  }

  /** Reads what an earlier run left; must finish before `append`. */
  async load(): Promise<void> {
    const stored = await this.storage.load();
    stored.sort((a, b) => a.seq - b.seq);
    this.entries = stored.map((entry) => live(entry, Promise.resolve()));
    this.nextSeq = (stored[stored.length - 1]?.seq ?? 0) + 1;
  }

  /**
   * Makes the entry with the next seq and stores it; resolves once it is durable. An entry whose `put`
   * fails is dropped again and the failure thrown: the write was never accepted.
   */
  async append(make: (seq: number) => OutboxEntry): Promise<LiveEntry> {
    const entry = make(this.nextSeq++);
    const added = live(entry, this.storage.put(entry));
    this.entries.push(added); // seq order: seqs are taken in call order
    try {
      await added.durable;
    } catch (error) {
      this.entries = this.entries.filter((l) => l !== added);
      throw error;
    }
    return added;
  }

  /** Stores the entry's changes (a first `sentAt`, a stale entry's new key), unless it has settled. */
  async save(changed: LiveEntry): Promise<void> {
    if (!changed.settled) await this.storage.put(changed.entry);
  }

  /**
   * Takes the entry out: from memory at once (marked settled, before the first await), then from the
   * storage. A storage failure is thrown after the memory side is done: the entry then comes back after
   * a restart and is answered from its key's record.
   */
  async remove(done: LiveEntry): Promise<void> {
    done.settled = true;
    this.entries = this.entries.filter((l) => l !== done);
    await this.storage.remove(done.entry.id);
  }

  /** The next entry of the group to send. */
  head(groupId: string): LiveEntry | undefined {
    return this.entries.find((l) => l.entry.groupId === groupId && !l.settled);
  }

  find(predicate: (live: LiveEntry) => boolean): LiveEntry | undefined {
    return this.entries.find(predicate);
  }

  /** The unsettled entries, oldest first; only those of `groupId` when given. */
  list(groupId?: string): readonly LiveEntry[] {
    return groupId === undefined ? this.entries : this.entries.filter((l) => l.entry.groupId === groupId);
  }

  groupIds(): Set<string> {
    return new Set(this.entries.map((l) => l.entry.groupId));
  }

  get size(): number {
    return this.entries.length;
  }
}
