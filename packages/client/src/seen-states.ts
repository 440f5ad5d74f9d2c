/**
 * The group states this client has seen, so that no read shows it an older one (API.md §1 "Reads
 * from replicas"): every write's answer says its group's `seq` (`X-Seq: <groupId>:<seq>`), as every
 * live event does; a read that a replica may serve sends them back (`X-Min-Seq`), and the server
 * answers it from a state at least that recent.
 */

/** The most groups one `X-Min-Seq` may name (the server's bound, API.md §9.1). */
export const MAX_MIN_SEQ_ENTRIES = 20;
/** The most groups remembered: the least recently advanced is forgotten first. */
const REMEMBERED_GROUPS = 1000;

const SEQ_HEADER = /^(grp_[A-Za-z0-9_-]{1,100}):(0|[1-9][0-9]{0,15})$/;

/** `GET`s a replica may serve (the operations with `X-Min-Seq`), and the group their path names. */
const REPLICA_READS: readonly RegExp[] = [
  /^\/v1\/groups\/([^/]+)\/(?:expenses|balances|export\.csv)$/,
  /^\/v1\/expenses\/[^/]+$/,
  /^\/v1\/me\/(?:activity|export)$/,
];

export class SeenStates {
  /** By group, its highest `seq` seen; in the order they last advanced (oldest first). */
  private readonly seqs = new Map<string, number>();

  /** Notes that the client has seen `groupId` at `seq` (a write's answer, an event). */
  note(groupId: string, seq: number): void {
    const known = this.seqs.get(groupId);
    if (known !== undefined && known >= seq) return;
    this.seqs.delete(groupId);
    this.seqs.set(groupId, seq);
    if (this.seqs.size > REMEMBERED_GROUPS) this.seqs.delete(this.seqs.keys().next().value as string);
  }

  /** Notes an answer's `X-Seq` header (ignored when absent or not of the documented form). */
  noteHeader(value: string | null | undefined): void {
    const match = value ? SEQ_HEADER.exec(value.trim()) : null;
    if (match) this.note(match[1] as string, Number(match[2]));
  }

  /** The highest `seq` seen of `groupId`, if any. */
  seqOf(groupId: string): number | undefined {
    return this.seqs.get(groupId);
  }

  /**
   * The `X-Min-Seq` of a `GET` of `path`, or undefined when the read is not one a replica serves
   * or there is nothing to send: the group a path names, else the groups that advanced last.
   */
  minSeqFor(path: string): string | undefined {
    const pattern = REPLICA_READS.find((p) => p.test(path));
    if (!pattern || this.seqs.size === 0) return undefined;
    const named = pattern.exec(path)?.[1];
    if (named !== undefined) {
      const groupId = decodeURIComponent(named);
      const seq = this.seqs.get(groupId);
      return seq === undefined ? undefined : `${groupId}:${seq}`;
    }
    const latest = [...this.seqs].slice(-MAX_MIN_SEQ_ENTRIES);
    return latest.map(([groupId, seq]) => `${groupId}:${seq}`).join(', ');
  }
}
