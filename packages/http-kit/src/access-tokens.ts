import { createSecretKey } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/**
 * What a valid access token says: whose it is, when it stops being valid, and the session (the
 * refresh-token family, API.md §2) it was issued for, when it was issued for one.
 */
export type VerifiedToken = { userId: string; expiresAt: Date; sessionId?: string | undefined };

export type AccessTokens = {
  /** Lifetime in seconds, as reported to clients in `expiresIn`. */
  ttlSeconds: number;
  /** A token for the user; `sessionId` becomes the `sid` claim (the session it belongs to). */
  sign(userId: string, sessionId?: string): Promise<string>;
  /** The user id of a valid token, or undefined for anything else (bad signature, `alg: none`, expired). */
  verify(token: string): Promise<string | undefined>;
  /** Like `verify`, with the token's expiry (the WebSocket gateway closes the socket then). */
  verifyDetailed(token: string): Promise<VerifiedToken | undefined>;
};

const ISSUER = 'tally';

/** The `aud` claim when JWT_AUDIENCE is not set. */
export const DEFAULT_AUDIENCE = 'tally';

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
  /** The `aud` claim written and required (JWT_AUDIENCE): one deployment's token is refused by another. */
  audience?: string | undefined;
}): AccessTokens {
  const audience = options.audience ?? DEFAULT_AUDIENCE;
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
        const { payload } = await jwtVerify(token, candidate, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience,
        });
        if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return undefined;
        const sessionId = typeof payload['sid'] === 'string' ? payload['sid'] : undefined;
        return { userId: payload.sub, expiresAt: new Date(payload.exp * 1000), sessionId };
      } catch {
        // Wrong key, expired, malformed: try the next key, if any.
      }
    }
    return undefined;
  }

  return {
    ttlSeconds: options.ttlSeconds,
    async sign(userId, sessionId) {
      return new SignJWT(sessionId === undefined ? {} : { sid: sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(audience)
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
