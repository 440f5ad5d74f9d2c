import { AppError } from '@tally/http-kit';
import type { Request, RequestHandler, Response } from 'express';
import type { Cluster, Redis } from 'ioredis';
import { Counter, type Registry } from 'prom-client';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';

const WINDOW_SECONDS = 60;

export type RateLimitOptions = {
  /**
   * Shared by every instance through Redis; absent in the embedded default (in-process counters).
   * A Redis Cluster works as is: each counter is one key (`rl:<limiter>:<id>`) and the limiter's
   * one Lua script declares it, so it runs on that key's shard.
   */
  redis?: Redis | Cluster | undefined;
  pointsPerMinute: number;
  registry?: Registry;
};

/**
 * Per-user (and, on `/v1/auth/*`, per-IP) budgets of API.md §9: `RATE_LIMIT_PER_MINUTE` requests
 * per fixed minute window. In a fleet the counters live in Redis, so one budget spans every
 * instance; if Redis fails, each instance falls back to its own in-memory counters rather than
 * refusing or ignoring limits.
 */
export function createRateLimits(options: RateLimitOptions) {
  const { redis, pointsPerMinute } = options;
  const rejected = new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests refused with 429, by limiter',
    labelNames: ['limiter'] as const,
    registers: options.registry ? [options.registry] : [],
  });

  const limiter = (keyPrefix: string): RateLimiterAbstract => {
    const memory = new RateLimiterMemory({ keyPrefix, points: pointsPerMinute, duration: WINDOW_SECONDS });
    return redis
      ? new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `rl:${keyPrefix}`,
          points: pointsPerMinute,
          duration: WINDOW_SECONDS,
          insuranceLimiter: memory,
        })
      : memory;
  };

  const middleware = (
    name: string,
    store: RateLimiterAbstract,
    keyOf: (req: Request, res: Response) => string,
  ): RequestHandler => {
    return async (req, res, next) => {
      let result: RateLimiterRes;
      let allowed = true;
      try {
        result = await store.consume(keyOf(req, res));
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        result = error;
        allowed = false;
      }
      const resetSeconds = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
      const headers = {
        'RateLimit-Limit': String(pointsPerMinute),
        'RateLimit-Remaining': String(Math.max(0, result.remainingPoints)),
        'RateLimit-Reset': String(resetSeconds),
      };
      if (!allowed) {
        rejected.inc({ limiter: name });
        throw new AppError('rate_limited', 429, 'Too many requests; slow down and retry later.', {
          headers: { ...headers, 'Retry-After': String(resetSeconds) },
        });
      }
      for (const [header, value] of Object.entries(headers)) res.setHeader(header, value);
      next();
    };
  };

  return {
    /** After authentication: one budget per user. */
    perUser: middleware('user', limiter('user'), (_req, res) => String(res.locals['userId'])),
    /** Before the auth routes: one budget per client IP (behind the load balancer, X-Forwarded-For). */
    perIp: middleware('ip', limiter('ip'), (req) => req.ip ?? 'unknown'),
  };
}
