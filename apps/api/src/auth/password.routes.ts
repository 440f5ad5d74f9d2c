import { Router } from 'express';
import { jsonBody } from '../http/json-body';
import { noContent, sendReply } from '../http/reply';
import { validate } from '../http/validate';
import type { BackgroundTasks } from '../mail/background';
import { changePasswordBody, passwordResetBody, passwordResetConfirmBody } from '../schemas';
import { sessionIdOf, userIdOf } from './authenticate';
import type { PasswordService } from './password-service';

/** The one answer to every reset request, whether the account exists or not. */
export const PASSWORD_RESET_ACCEPTED = Object.freeze({
  message: 'If an account with this email exists, a link to set a new password is on its way.',
});

/** `POST /v1/auth/password-reset` and `…/confirm`: public, under the per-IP auth budget. */
export function passwordResetRoutes(deps: {
  passwords: PasswordService;
  background: BackgroundTasks;
}): Router {
  const router = Router();
  router.post('/auth/password-reset', jsonBody, (req, res) => {
    const { email } = validate<{ email: string }>(passwordResetBody, req.body);
    // Answered before the account is even looked up: known and unknown emails look alike.
    res.status(202).json(PASSWORD_RESET_ACCEPTED);
    deps.background.run('password_reset_request', () => deps.passwords.requestReset(email));
  });
  router.post('/auth/password-reset/confirm', jsonBody, async (req, res) => {
    const { token, password } = validate<{ token: string; password: string }>(
      passwordResetConfirmBody,
      req.body,
    );
    await deps.passwords.confirmReset(token, password);
    sendReply(res, noContent());
  });
  return router;
}

/** `POST /v1/me/password`; mounted after authentication. */
export function changePasswordRoutes(deps: { passwords: PasswordService }): Router {
  const router = Router();
  router.post('/me/password', jsonBody, async (req, res) => {
    const body = validate<{ current: string; new: string }>(changePasswordBody, req.body);
    await deps.passwords.change(userIdOf(res), sessionIdOf(res), body.current, body.new);
    sendReply(res, noContent());
  });
  return router;
}
