// The account's email and password by mail (API.md §2.4, §2.5, §3.3): forgetting the password and
// setting a new one from the mailed link (both signed out), confirming the address (mailing the link
// again), changing it, and the places kept for this address in groups (claiming one).
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { resetToken } from './links.js';
import { t } from './messages.js';
import { attempt, describe, say, tally, useStore } from './session.js';
import { Field, go } from './ui.js';

export function ForgotScreen() {
  const send = attempt(async (event) => {
    const email = String(new FormData(event.target).get('email'));
    await tally.auth.requestPasswordReset(email);
    event.target.reset();
    say(t('mail.resetSent', email));
  });
  return html`<section>
    <h1>${t('mail.forgot')}</h1>
    <form id="forgot-form" onSubmit=${send}>
      <${Field} label=${t('email')} name="email" type="email" required autocomplete="email" />
      <div class="row">
        <button class="primary" type="submit">${t('mail.sendReset')}</button>
        <a href="#/">${t('signIn')}</a>
      </div>
    </form>
  </section>`;
}

export function ResetScreen() {
  const set = attempt(async (event) => {
    if (!resetToken) throw new Error(t('mail.noResetLink'));
    await tally.auth.confirmPasswordReset(resetToken, String(new FormData(event.target).get('password')));
    go('#/');
    say(t('mail.passwordSet'));
  });
  return html`<section>
    <h1>${t('mail.newPassword')}</h1>
    <form id="reset-form" onSubmit=${set}>
      <${Field} label=${t('newPassword')} name="password" type="password" required minlength="8" autocomplete="new-password" />
      <button class="primary" type="submit">${t('save')}</button>
    </form>
  </section>`;
}

/** On the account screen: whether the address is confirmed (mail the link again), and changing it. */
export function EmailSection() {
  const { me } = useStore();
  const resend = attempt(async () => {
    const sent = await tally.me.requestEmailVerification();
    say(sent ? t('mail.linkSent', sent.email) : t('mail.alreadyVerified'));
  });
  const change = attempt(async (event) => {
    const form = new FormData(event.target);
    const sent = await tally.me.changeEmail(String(form.get('email')), String(form.get('password')));
    event.target.reset();
    say(sent ? t('mail.changeSent', sent.email, me.email) : t('mail.same'));
  });
  return html`<section aria-labelledby="email-title">
    <h2 id="email-title">${t('email')}</h2>
    ${
      me?.emailVerified === false &&
      html`<p id="verify-box">${t('mail.unverified', me.email)}
        <button type="button" onClick=${resend}>${t('mail.resend')}</button></p>`
    }
    <form id="change-email-form" onSubmit=${change}>
      <${Field} label=${t('mail.newEmail')} name="email" type="email" required autocomplete="email" />
      <${Field} label=${t('currentPassword')} name="password" type="password" required autocomplete="current-password" />
      <button type="submit">${t('mail.change')}</button>
    </form>
  </section>`;
}

/** On the groups screen: places kept for this (confirmed) address, each taken over with a click. */
export function ClaimableMembers() {
  const [places, setPlaces] = useState([]);
  useEffect(() => {
    if (navigator.onLine) tally.invites.claimable().then(setPlaces, (error) => say(describe(error), true));
  }, []);
  if (places.length === 0) return null;
  const claim = (place) =>
    attempt(async () => {
      await tally.invites.claim(place.groupId, place.memberId);
      say(t('mail.claimed', place.name, place.groupName));
      go(`#/g/${place.groupId}`);
    });
  return html`<section aria-labelledby="claimable-title">
    <h2 id="claimable-title">${t('mail.claimable')}</h2>
    <ul class="plain" id="claimable">
      ${places.map(
        (p) => html`<li key=${p.memberId}>
          <button type="button" onClick=${claim(p)}>${t('mail.claim', p.name, p.groupName)}</button>
        </li>`,
      )}
    </ul>
  </section>`;
}
