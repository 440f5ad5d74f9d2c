import { created, ok } from '../http/reply';
import { bodyOf, type Route, type RouteInput, route } from '../http/route';
import type { BackgroundTasks } from '../mail/background';
import type { Mailer } from '../mail/mailer';
import type { AuthService } from './auth.service';
import type { EmailVerification } from './email-verification';
import type { DeviceInfo } from './sessions';

/** The device a sign-in comes from, as its session records it (API.md §2). */
const deviceOf = (req: RouteInput): DeviceInfo => ({ userAgent: req.headers['user-agent'], ip: req.ip });

/** Registering, signing in and refreshing: public, under the per-IP auth budget. */
export function authRoutes(deps: {
  auth: AuthService;
  verification: EmailVerification;
  mailer: Mailer;
  background: BackgroundTasks;
}): Route[] {
  return [
    route('register', async (req) => {
      const session = await deps.auth.register(bodyOf(req), deviceOf(req));
      // The link to confirm the address (API.md §2.5), in the background: a slow mail server never
      // delays signing up, and a failed mail is sent again on request.
      deps.background.run('email_verification_mail', async () => {
        const link = await deps.verification.requestLink(session.user.id, { quiet: true });
        if (link) await deps.mailer.send(link.mail);
      });
      return created(session);
    }),
    route('login', async (req) => ok(await deps.auth.login(bodyOf(req), deviceOf(req)))),
    route('refresh', async (req) => {
      const { refreshToken } = bodyOf<{ refreshToken: string }>(req);
      return ok(await deps.auth.refresh(refreshToken));
    }),
  ];
}

/** `GET /v1/me`. */
export function meRoutes(deps: { auth: AuthService }): Route[] {
  return [route('getMe', async (req) => ok(await deps.auth.me(req.userId)))];
}
