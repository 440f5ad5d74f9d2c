import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';

export type VapidKeyPair = { publicKey: string; privateKey: string };

/**
 * The VAPID key pair push is signed with (RFC 8292). Browsers subscribe with the public key, so a
 * deployment must keep one pair for good and every process must share it: `VAPID_PUBLIC_KEY` and
 * `VAPID_PRIVATE_KEY`, both or neither. Neither: generated once and kept in `DATA_DIR/vapid-keys.json`,
 * like the JWT secret (the embedded default; a fleet sets them).
 */
export function resolveVapidKeys(
  configured: { publicKey: string | undefined; privateKey: string | undefined },
  dataDir: string,
): VapidKeyPair {
  if (configured.publicKey && configured.privateKey)
    return { publicKey: configured.publicKey, privateKey: configured.privateKey };
  if (configured.publicKey || configured.privateKey)
    throw new Error('invalid configuration: set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY together, or neither');
  const file = path.resolve(dataDir, 'vapid-keys.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as VapidKeyPair;
  } catch (error) {
    // Only a missing file means "no keys yet": anything else stops the boot rather than minting
    // keys that end every browser's subscription.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dataDir, { recursive: true });
    const keys = webpush.generateVAPIDKeys();
    writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: 'wx' });
    return keys;
  }
}
