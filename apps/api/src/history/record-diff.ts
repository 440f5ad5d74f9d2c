import { canonicalJson } from '@tally/idempotency';

/**
 * One difference between two versions of a record (API.md §15). `userId` names the member of a
 * per-member field (`paidBy`, `shares`, `split.between`); `from`/`to` are `null` where the member (or
 * the field) is absent on that side.
 */
export type FieldChange = { field: string; userId?: string; from: unknown; to: unknown };

type Json = Record<string, unknown>;

/** What identifies a version rather than its content: never diffed. */
const META = new Set([
  'id',
  'groupId',
  'createdBy',
  'createdAt',
  'updatedAt',
  'version',
  'recurringId',
  'deletedAt',
]);

/** The fields in the order a reader expects them; fields not listed follow, by name. */
const ORDER = [
  'description',
  'category',
  'amount',
  'currency',
  'occurredAt',
  'paidBy',
  'split',
  'shares',
  'fromUserId',
  'toUserId',
  'note',
];

const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `[userId, value]` of a per-member list: `{userId, <value>}` entries, or bare ids (an equal split). */
function byMember(list: unknown, pick: (entry: Json) => unknown): Map<string, unknown> {
  const members = new Map<string, unknown>();
  if (!Array.isArray(list)) return members;
  for (const entry of list) {
    if (typeof entry === 'string') members.set(entry, true);
    else if (isObject(entry) && typeof entry['userId'] === 'string')
      members.set(entry['userId'], pick(entry));
  }
  return members;
}

/** Per member, in the order of the new list and then the members only the old one had. */
function memberChanges(field: string, before: Map<string, unknown>, after: Map<string, unknown>) {
  const changes: FieldChange[] = [];
  for (const userId of new Set([...after.keys(), ...before.keys()])) {
    const from = before.get(userId) ?? null;
    const to = after.get(userId) ?? null;
    if (!same(from, to)) changes.push({ field, userId, from, to });
  }
  return changes;
}

/** The per-member lists of a record, and the value of an entry: what a member paid, what they owe. */
const PER_MEMBER = new Map([
  ['paidBy', 'amount'],
  ['shares', 'owed'],
]);

/** The weight a split gives a member: the amount, percent or shares; `true` in an equal split. */
const weightOf = (entry: Json): unknown => entry['amount'] ?? entry['percent'] ?? entry['shares'] ?? null;

function splitChanges(before: unknown, after: unknown): FieldChange[] {
  if (!isObject(before) || !isObject(after))
    return [{ field: 'split', from: before ?? null, to: after ?? null }];
  const changes: FieldChange[] = [];
  if (!same(before['type'], after['type'])) {
    changes.push({ field: 'split.type', from: before['type'] ?? null, to: after['type'] ?? null });
  }
  // An itemized split's items are compared whole (an item has no identity across versions).
  for (const key of ['items', 'tax', 'tip']) {
    if (!same(before[key], after[key])) {
      changes.push({ field: `split.${key}`, from: before[key] ?? null, to: after[key] ?? null });
    }
  }
  changes.push(
    ...memberChanges(
      'split.between',
      byMember(before['between'], weightOf),
      byMember(after['between'], weightOf),
    ),
  );
  return changes;
}

/**
 * The field-by-field changes from `before` to `after`, two versions of one record as its events
 * carry it: `paidBy` and `shares` per member, a split's type and weights per member (its items
 * whole), any other field whole. A field `before` does not carry (an event written before the field
 * existed) is not diffed: nothing says what it was.
 */
export function diffRecord(before: Json, after: Json): FieldChange[] {
  const fields = [...new Set([...Object.keys(after), ...Object.keys(before)])]
    .filter((field) => !META.has(field) && field in before)
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const changes: FieldChange[] = [];
  for (const field of fields) {
    const from = before[field];
    const to = after[field];
    if (same(from, to)) continue;
    const perMember = PER_MEMBER.get(field);
    if (perMember !== undefined) {
      const entryValue = (entry: Json) => entry[perMember];
      changes.push(...memberChanges(field, byMember(from, entryValue), byMember(to, entryValue)));
    } else if (field === 'split') {
      changes.push(...splitChanges(from, to));
    } else {
      changes.push({ field, from: from ?? null, to: to ?? null });
    }
  }
  return changes;
}

const rank = (field: string) => {
  const at = ORDER.indexOf(field);
  return at === -1 ? ORDER.length : at;
};
