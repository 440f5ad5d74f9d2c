import { noContent, type Reply } from '../http/reply';
import { bodyOf, type Route, route } from '../http/route';
import type { BackgroundTasks } from '../mail/background';
import type { Mailer } from '../mail/mailer';
import type { EmailVerification, LinkToSend } from './email-verification';

type Deps = { verification: EmailVerification; mailer: Mailer; background: BackgroundTasks };

/** `202 {email}` and the mail sent after the answer; `204` when nothing waits to be confirmed. */
function sendLink(deps: Deps, link: LinkToSend): Reply {
  if (!link) return noContent();
  deps.background.run('email_verification_mail', () => deps.mailer.send(link.mail));
  return { status: 202, body: { email: link.email } };
}

/** `POST /v1/auth/verify-email`: public (the link may be opened signed out), under the per-IP auth budget. */
export function verifyEmailRoutes(deps: Deps): Route[] {
  return [
    route('verifyEmail', async (req) => {
      const { token } = bodyOf<{ token: string }>(req);
      await deps.verification.confirm(token);
      return noContent();
    }),
  ];
}

/** `POST /v1/me/email` and `POST /v1/me/email/verification`. */
export function myEmailRoutes(deps: Deps): Route[] {
  return [
    route('changeEmail', async (req) => {
      const body = bodyOf<{ email: string; password: string }>(req);
      return sendLink(deps, await deps.verification.changeEmail(req.userId, body.email, body.password));
    }),
    route('requestEmailVerification', async (req) => {
      bodyOf(req, {});
      return sendLink(deps, await deps.verification.requestLink(req.userId));
    }),
  ];
}
