// The account: its password and email (API.md §2.4, §2.5), its data and its deletion (API.md §11).
import { tally } from './client.js';
import { $, describe, handle, saveFile, say } from './dom.js';
import { me, signedOut } from './session.js';

$('download-my-data').addEventListener(
  'click',
  handle(async () => {
    const data = await tally.me.export();
    saveFile(JSON.stringify(data, null, 2), 'tally-my-data.json', 'application/json');
    say(`Downloaded your data: ${data.groups.length} group(s).`);
  }),
);

$('delete-account').addEventListener(
  'click',
  handle(async () => {
    const sure = window.confirm(
      'Delete your account? Your name and email are erased and you cannot sign in again. ' +
        'Your groups keep their history, showing you as "Deleted user".',
    );
    if (!sure) return;
    await tally.me.delete();
    signedOut('Your account is deleted.');
  }),
);

// ---- password: forgot, reset by the mailed link, change (API.md §2.4) ------------------------------
$('forgot-form').addEventListener(
  'submit',
  handle(async (event) => {
    const email = String(new FormData(event.target).get('email'));
    await tally.auth.requestPasswordReset(email);
    event.target.reset();
    say(`If ${email} has an account, a link to set a new password is on its way.`);
  }),
);

/** The token of a reset link (`…/#reset=<token>`); the fragment never reaches a server. */
const resetToken = /^#reset=([A-Za-z0-9_-]+)$/.exec(window.location.hash)?.[1];
if (resetToken) {
  // Out of the address bar (and the history) at once: the link works only once anyway.
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  $('reset').hidden = false;
  $('auth').hidden = true;
}

$('reset-form').addEventListener(
  'submit',
  handle(async (event) => {
    const password = String(new FormData(event.target).get('password'));
    await tally.auth.confirmPasswordReset(resetToken, password);
    event.target.reset();
    $('reset').hidden = true;
    $('auth').hidden = false;
    say('Your password is set, and every session has ended: log in with the new password.');
  }),
);

$('change-password-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    await tally.me.changePassword(String(form.get('current')), String(form.get('new')));
    event.target.reset();
    say('Password changed. Your other devices are signed out; this one stays signed in.');
  }),
);

// ---- email: confirmed by the mailed link, mailed again, changed (API.md §2.5) ---------------------

/** The token of a verification link (`…/#verify-email=<token>`); the fragment never reaches a server. */
const verifyToken = /^#verify-email=([A-Za-z0-9_-]+)$/.exec(window.location.hash)?.[1];
if (verifyToken) {
  // Out of the address bar at once: the link works only once anyway. No sign-in needed.
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  tally.auth.verifyEmail(verifyToken).then(
    () => say('Your email address is confirmed.'),
    (error) => say(`This link does not work (any more): ${describe(error)}`, true),
  );
}

$('resend-verification').addEventListener(
  'click',
  handle(async () => {
    const sent = await tally.me.requestEmailVerification();
    say(sent ? `A new link is on its way to ${sent.email}.` : 'Your email address is confirmed already.');
  }),
);

$('change-email-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    const sent = await tally.me.changeEmail(String(form.get('email')), String(form.get('password')));
    event.target.reset();
    say(
      sent
        ? `A link is on its way to ${sent.email}; until you open it you keep signing in with ${me.email}.`
        : 'That is your address already.',
    );
  }),
);
