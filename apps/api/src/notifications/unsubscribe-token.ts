import { createHmac, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_KINDS, type NotificationKind } from './notification-settings';

/** What a mail's unsubscribe link turns off: mails of one kind, or the weekly digest. */
export type UnsubscribeScope = NotificationKind | 'digest';

const SCOPES = new Set<string>([...NOTIFICATION_KINDS, 'digest']);

/**
 * Unsubscribe links work without signing in (RFC 8058: the mail client posts them by itself), so
 * the token carries the user and the kind of mail, signed with HMAC-SHA256 under a key derived
 * from the deployment's secret: any process can check it, nothing is stored, and it does not expire
 * (an old mail's link keeps working; all it can do is turn mails off).
 */
export function createUnsubscribeTokens(secret: string) {
  const key = createHmac('sha256', secret).update('tally unsubscribe links v1').digest();
  const sign = (body: string) => createHmac('sha256', key).update(body).digest('base64url');
  return {
    make(userId: string, scope: UnsubscribeScope): string {
      const body = Buffer.from(`${userId}.${scope}`).toString('base64url');
      return `${body}.${sign(body)}`;
    },
    /** The user and scope of a genuine token; undefined for anything else. */
    read(token: string): { userId: string; scope: UnsubscribeScope } | undefined {
      const [body, mac, ...rest] = token.split('.');
      if (!body || !mac || rest.length > 0) return undefined;
      const expected = Buffer.from(sign(body));
      const given = Buffer.from(mac);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      const [userId, scope] = Buffer.from(body, 'base64url').toString('utf8').split('.');
      if (!userId || !scope || !SCOPES.has(scope)) return undefined;
      return { userId, scope: scope as UnsubscribeScope };
    },
  };
}

export type UnsubscribeTokens = ReturnType<typeof createUnsubscribeTokens>;
