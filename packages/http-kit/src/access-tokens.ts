import { createSecretKey } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/** What a valid access token says: whose it is and when it stops being valid. */
export type VerifiedToken = { userId: string; expiresAt: Date };

export type AccessTokens = {
  /** Lifetime in seconds, as reported to clients in `expiresIn`. */
  ttlSeconds: number;
  sign(userId: string): Promise<string>;
  /** The user id of a valid token, or undefined for anything else (bad signature, `alg: none`, expired). */
  verify(token: string): Promise<string | undefined>;
  /** Like `verify`, with the token's expiry (the WebSocket gateway closes the socket then). */
  verifyDetailed(token: string): Promise<VerifiedToken | undefined>;
};

const ISSUER = 'tally';

/** Verified tokens each process remembers, so a client's next request skips the HMAC and the JSON. */
const REMEMBERED_TOKENS = 10_000;

/**
 * HS256 access tokens signed with JWT_SECRET; only HS256 is accepted on the way in. During a
 * rotation, tokens signed with the retired secret (`previousSecret`, JWT_SECRET_PREVIOUS) still
 * verify until they expire; new tokens are always signed with the current one.
 */
export function createAccessTokens(options: {
  secret: string;
  previousSecret?: string | undefined;
  ttlSeconds: number;
}): AccessTokens {
  // KeyObjects built once: given raw bytes, jose would import a new key on every sign and verify.
  const encode = (secret: string) => createSecretKey(Buffer.from(secret, 'utf8'));
  const key = encode(options.secret);
  const verifyingKeys = options.previousSecret ? [key, encode(options.previousSecret)] : [key];

  // The exact token text verified before, until it expires: the same bytes verify the same way
  // (the keys do not change while the process runs). Oldest first out.
  const remembered = new Map<string, VerifiedToken>();

  async function verifyDetailed(token: string): Promise<VerifiedToken | undefined> {
    const known = remembered.get(token);
    if (known) {
      if (known.expiresAt.getTime() > Date.now()) return known;
      remembered.delete(token);
    }
    const verified = await verifySignature(token);
    if (verified) {
      remembered.set(token, verified);
      if (remembered.size > REMEMBERED_TOKENS) remembered.delete(remembered.keys().next().value as string);
    }
    return verified;
  }

  async function verifySignature(token: string): Promise<VerifiedToken | undefined> {
    for (const candidate of verifyingKeys) {
      try {
        const { payload } = await jwtVerify(token, candidate, { algorithms: ['HS256'], issuer: ISSUER });
        if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return undefined;
        return { userId: payload.sub, expiresAt: new Date(payload.exp * 1000) };
      } catch {
        // Wrong key, expired, malformed: try the next key, if any.
      }
    }
    return undefined;
  }

  return {
    ttlSeconds: options.ttlSeconds,
    async sign(userId) {
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${options.ttlSeconds}s`)
        .sign(key);
    },
    verifyDetailed,
    async verify(token) {
      return (await verifyDetailed(token))?.userId;
    },
  };
}
