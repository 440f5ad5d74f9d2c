import { createHash } from 'node:crypto';

/**
 * The SHA-256 of `text` (UTF-8) in hex: what is stored of a secret that must be found again but
 * never read back (refresh tokens, reset tokens, invite codes), and the stable digest of derived
 * ids and keys.
 */
export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
