import { Router } from 'express';
import { jsonBody } from '../http/json-body';
import { noContent, type Reply, sendReply } from '../http/reply';
import { validate } from '../http/validate';
import type { BackgroundTasks } from '../mail/background';
import type { Mailer } from '../mail/mailer';
import { changeEmailBody, noBody, verifyEmailBody } from '../schemas';
import { userIdOf } from './authenticate';
import type { EmailVerification, LinkToSend } from './email-verification';

type Deps = { verification: EmailVerification; mailer: Mailer; background: BackgroundTasks };

/** `202 {email}` and the mail sent after the answer; `204` when nothing waits to be confirmed. */
function sendLink(deps: Deps, link: LinkToSend): Reply {
  if (!link) return noContent();
  deps.background.run('email_verification_mail', () => deps.mailer.send(link.mail));
  return { status: 202, body: { email: link.email } };
}

/** `POST /v1/auth/verify-email`: public (the link may be opened signed out), under the per-IP auth budget. */
export function verifyEmailRoutes(deps: Deps): Router {
  const router = Router();
  router.post('/auth/verify-email', jsonBody, async (req, res) => {
    const { token } = validate<{ token: string }>(verifyEmailBody, req.body);
    await deps.verification.confirm(token);
    sendReply(res, noContent());
  });
  return router;
}

/** `POST /v1/me/email` and `POST /v1/me/email/verification`; mounted after authentication. */
export function myEmailRoutes(deps: Deps): Router {
  const router = Router();
  router.post('/me/email', jsonBody, async (req, res) => {
    const body = validate<{ email: string; password: string }>(changeEmailBody, req.body);
    sendReply(
      res,
      sendLink(deps, await deps.verification.changeEmail(userIdOf(res), body.email, body.password)),
    );
  });
  router.post('/me/email/verification', jsonBody, async (req, res) => {
    validate(noBody, req.body ?? {});
    sendReply(res, sendLink(deps, await deps.verification.requestLink(userIdOf(res))));
  });
  return router;
}
