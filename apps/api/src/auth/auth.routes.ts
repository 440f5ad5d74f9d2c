import { type Request, Router } from 'express';
import { jsonBody } from '../http/json-body';
import { created, ok, sendReply } from '../http/reply';
import { validate } from '../http/validate';
import type { BackgroundTasks } from '../mail/background';
import type { Mailer } from '../mail/mailer';
import { loginBody, refreshBody, registerBody } from '../schemas';
import type { AuthService } from './auth.service';
import { userIdOf } from './authenticate';
import type { EmailVerification } from './email-verification';
import type { DeviceInfo } from './sessions';

/** The device a sign-in comes from, as its session records it (API.md §2). */
const deviceOf = (req: Request): DeviceInfo => ({ userAgent: req.get('user-agent'), ip: req.ip });

export function authRoutes(deps: {
  auth: AuthService;
  verification: EmailVerification;
  mailer: Mailer;
  background: BackgroundTasks;
}): Router {
  const router = Router();
  router.post('/auth/register', jsonBody, async (req, res) => {
    const session = await deps.auth.register(validate(registerBody, req.body), deviceOf(req));
    sendReply(res, created(session));
    // The link to confirm the address (API.md §2.5), after the answer: a slow mail server never
    // delays signing up, and a failed mail is sent again on request.
    deps.background.run('email_verification_mail', async () => {
      const link = await deps.verification.requestLink(session.user.id, { quiet: true });
      if (link) await deps.mailer.send(link.mail);
    });
  });
  router.post('/auth/login', jsonBody, async (req, res) => {
    sendReply(res, ok(await deps.auth.login(validate(loginBody, req.body), deviceOf(req))));
  });
  router.post('/auth/refresh', jsonBody, async (req, res) => {
    const { refreshToken } = validate<{ refreshToken: string }>(refreshBody, req.body);
    sendReply(res, ok(await deps.auth.refresh(refreshToken)));
  });
  return router;
}

/** `GET /v1/me`; mounted after authentication and the per-user rate limit. */
export function meRoutes(deps: { auth: AuthService }): Router {
  const router = Router();
  router.get('/me', async (_req, res) => {
    sendReply(res, ok(await deps.auth.me(userIdOf(res))));
  });
  return router;
}
