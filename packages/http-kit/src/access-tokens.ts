import { jwtVerify, SignJWT } from 'jose';

export type AccessTokens = {
  /** Lifetime in seconds, as reported to clients in `expiresIn`. */
  ttlSeconds: number;
  sign(userId: string): Promise<string>;
  /** The user id of a valid token, or undefined for anything else (bad signature, `alg: none`, expired). */
  verify(token: string): Promise<string | undefined>;
};

const ISSUER = 'tally';

/** HS256 access tokens signed with JWT_SECRET; only HS256 is accepted on the way in. */
export function createAccessTokens(options: { secret: string; ttlSeconds: number }): AccessTokens {
  const key = new TextEncoder().encode(options.secret);
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
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER });
        return typeof payload.sub === 'string' ? payload.sub : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
