/** The part of `http_ece` (RFC 8188/8291 content encoding, no types of its own) the tests use. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  export type DecryptParams = {
    version: 'aes128gcm' | 'aesgcm';
    /** The receiver's key pair (a browser's subscription key). */
    privateKey?: ECDH;
    /** The subscription's auth secret, base64url or bytes. */
    authSecret?: string | Buffer;
  };

  export function decrypt(buffer: Buffer, params: DecryptParams): Buffer;
  const ece: { decrypt: typeof decrypt };
  export default ece;
}
