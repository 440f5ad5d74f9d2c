import { limitExceeded } from '@tally/http-kit';

/**
 * The count bounds of notifications (API.md §9.1): what one user may store, so that what one event
 * fans out to is bounded too (members of a group × (1 mail + this many pushes)).
 */
export const NOTIFICATION_BOUNDS = {
  /** Push subscriptions (browsers, devices) of one account. */
  pushSubscriptionsPerUser: 10,
} as const;

/** `422 limit_exceeded` for `name` when `count` leaves no room for one more. */
export function assertRoomFor(name: keyof typeof NOTIFICATION_BOUNDS, count: number, detail: string): void {
  const max = NOTIFICATION_BOUNDS[name];
  if (count + 1 > max) throw limitExceeded(name, max, `${detail} (at most ${max}: \`${name}\`).`);
}
