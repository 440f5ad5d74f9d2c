import { createHmac, randomBytes } from 'node:crypto';

/** A new endpoint secret as the Standard Webhooks specification spells it: `whsec_` and base64 of 32 random bytes. */
export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The `webhook-signature` value of one message (Standard Webhooks): `v1,` and the base64 HMAC-SHA256
 * of `id.timestamp.body` under each secret's key (the base64 after `whsec_`), space-separated, so a
 * receiver holding either secret of a rotation verifies it.
 */
export function signatureOf(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}
