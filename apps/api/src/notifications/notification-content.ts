import { minorUnitsOf } from '@tally/domain';
import type { GroupEvent } from '@tally/events';
import type { NotificationKind } from './notification-settings';

/** One notification for one user, before it is queued per channel. */
export type Notice = {
  userId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  /** The deep link into the web client. */
  url: string;
};

/** What an event's text needs beyond the event: names, and what a comment is on. */
export type NoticeContext = {
  groupName: string;
  nameOf: (userId: string) => string;
  /** The web client's address (`APP_URL`). */
  appUrl: string;
  /** For `comment.created`: who the expense or settlement commented on involves, and its title. */
  commentTarget?: { involved: readonly string[]; title: string } | undefined;
};

type Expense = {
  id: string;
  description: string;
  amount: number;
  currency: string;
  paidBy: { userId: string; amount: number }[];
  shares: { userId: string; owed: number }[];
};
type Settlement = { id: string; fromUserId: string; toUserId: string; amount: number; currency: string };

/** `1234` EUR → `12.34 EUR`: the amount in the currency's ISO 4217 digits, exactly. */
export function formatMoney(minor: number, currency: string): string {
  const digits = minorUnitsOf(currency) ?? 0;
  const sign = minor < 0 ? '-' : '';
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  const whole = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return `${sign}${whole} ${currency}`;
}

/** `APP_URL/#group=<id>` (and the record): the web client opens the group once signed in. */
export function deepLink(appUrl: string, groupId: string, record?: string): string {
  const base = appUrl.replace(/\/+$/, '');
  return `${base}/#group=${encodeURIComponent(groupId)}${record ? `&record=${encodeURIComponent(record)}` : ''}`;
}

/** Up to `max` characters: notification texts stay short (and a push payload under its bound). */
const clip = (text: string, max = 120) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The notifications an event makes (API.md §13.2), each for one user, never for the one who made
 * the change: an expense that involves me (payer or share), with my share; an occurrence of a
 * recurring expense that involves me (everyone involved, nobody made it now); a comment on an
 * expense or settlement that involves me; a settlement to or from me; a member who accepted an
 * invite (joined or claimed), to the others. Other events notify nobody.
 */
export function noticesOf(event: GroupEvent, ctx: NoticeContext): Notice[] {
  const actor = ctx.nameOf(event.actorId);
  const group = clip(ctx.groupName, 60);
  switch (event.type) {
    case 'expense.created': {
      const expense = event.data['expense'] as Expense;
      const recurring = event.data['recurring'] !== undefined;
      const involved = new Set([
        ...expense.paidBy.map((p) => p.userId),
        ...expense.shares.map((s) => s.userId),
      ]);
      const url = deepLink(ctx.appUrl, event.groupId, expense.id);
      const what = `“${clip(expense.description, 60)}”, ${formatMoney(expense.amount, expense.currency)}`;
      return [...involved]
        .filter((userId) => recurring || userId !== event.actorId)
        .map((userId) => {
          const owed = expense.shares.find((s) => s.userId === userId)?.owed ?? 0;
          const share = `your share ${formatMoney(owed, expense.currency)}`;
          return recurring
            ? {
                userId,
                kind: 'recurring',
                title: `${group}: a recurring expense`,
                body: `${what} was added again; ${share}.`,
                url,
              }
            : {
                userId,
                kind: 'expense',
                title: `${group}: ${actor} added an expense`,
                body: `${what}; ${share}.`,
                url,
              };
        });
    }
    case 'settlement.created': {
      const s = event.data['settlement'] as Settlement;
      const money = formatMoney(s.amount, s.currency);
      const url = deepLink(ctx.appUrl, event.groupId, s.id);
      return [s.fromUserId, s.toUserId]
        .filter((userId, i, all) => userId !== event.actorId && all.indexOf(userId) === i)
        .map((userId) => ({
          userId,
          kind: 'settlement',
          title: `${group}: a payment ${userId === s.toUserId ? 'to you' : 'from you'}`,
          body:
            userId === s.toUserId
              ? `${ctx.nameOf(s.fromUserId)} paid you ${money}.`
              : `You paid ${ctx.nameOf(s.toUserId)} ${money} (recorded by ${actor}).`,
          url,
        }));
    }
    case 'comment.created': {
      const comment = event.data['comment'] as { targetId: string; text: string };
      const target = ctx.commentTarget;
      if (!target) return [];
      const url = deepLink(ctx.appUrl, event.groupId, comment.targetId);
      return [...new Set(target.involved)]
        .filter((userId) => userId !== event.actorId)
        .map((userId) => ({
          userId,
          kind: 'comment',
          title: `${group}: ${actor} commented on ${clip(target.title, 40)}`,
          body: clip(comment.text),
          url,
        }));
    }
    default:
      return [];
  }
}

/** The user who accepted an invite (joined or took over a pending member), if the event is one. */
export function joinerOf(event: GroupEvent): string | undefined {
  if (event.type === 'member.added') {
    const member = event.data['member'] as { userId: string; status?: string };
    // The creator's own `member.added` is the group's first event; any later one a user made for
    // themselves is an invite accepted.
    return member.userId === event.actorId && event.seq > 1 ? member.userId : undefined;
  }
  if (event.type === 'member.claimed') {
    const userId = event.data['userId'] as string;
    return userId === event.actorId ? userId : undefined;
  }
  return undefined;
}

/** `inviteAccepted` notices: the joiner's arrival, to the group's other members. */
export function joinNotices(event: GroupEvent, ctx: NoticeContext, members: readonly string[]): Notice[] {
  const joiner = joinerOf(event);
  if (joiner === undefined) return [];
  const url = deepLink(ctx.appUrl, event.groupId);
  return members
    .filter((userId) => userId !== joiner)
    .map((userId) => ({
      userId,
      kind: 'inviteAccepted',
      title: `${clip(ctx.groupName, 60)}: ${ctx.nameOf(joiner)} joined`,
      body: `${ctx.nameOf(joiner)} accepted an invite and joined the group.`,
      url,
    }));
}
