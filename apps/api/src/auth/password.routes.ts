import { noContent } from '../http/reply';
import { bodyOf, type Route, route } from '../http/route';
import type { BackgroundTasks } from '../mail/background';
import type { PasswordService } from './password-service';

/** The one answer to every reset request, whether the account exists or not. */
export const PASSWORD_RESET_ACCEPTED = Object.freeze({
  message: 'If an account with this email exists, a link to set a new password is on its way.',
});

/** `POST /v1/auth/password-reset` and `…/confirm`: public, under the per-IP auth budget. */
export function passwordResetRoutes(deps: {
  passwords: PasswordService;
  background: BackgroundTasks;
}): Route[] {
  return [
    route('requestPasswordReset', (req) => {
      const { email } = bodyOf<{ email: string }>(req);
      // Answered before the account is even looked up: known and unknown emails look alike.
      deps.background.run('password_reset_request', () => deps.passwords.requestReset(email));
      return { status: 202, body: PASSWORD_RESET_ACCEPTED };
    }),
    route('confirmPasswordReset', async (req) => {
      const { token, password } = bodyOf<{ token: string; password: string }>(req);
      await deps.passwords.confirmReset(token, password);
      return noContent();
    }),
  ];
}

/** `POST /v1/me/password`. */
export function changePasswordRoutes(deps: { passwords: PasswordService }): Route[] {
  return [
    route('changePassword', async (req) => {
      const body = bodyOf<{ current: string; new: string }>(req);
      await deps.passwords.change(req.userId, req.sessionId, body.current, body.new);
      return noContent();
    }),
  ];
}
