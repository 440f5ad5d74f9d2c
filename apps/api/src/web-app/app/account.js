// The account (API.md §2, §11): sessions (sign devices out), password change, export, deletion.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { EmailSection } from './email.js';
import { t } from './messages.js';
import { formatDateTime } from './money.js';
import { attempt, describe, saveFile, say, signedOut, signOut, tally, useStore } from './session.js';
import { AccountToolLinks } from './tools.js';
import { Field } from './ui.js';

export function AccountScreen() {
  const { me } = useStore();
  const [sessions, setSessions] = useState([]);
  const load = () => tally.sessions.list().then(setSessions);
  useEffect(() => {
    load().catch((error) => say(describe(error), true));
  }, []);

  const revoke = (s) =>
    attempt(async () => {
      if (s.current) return signOut(false);
      await tally.sessions.revoke(s.id);
      await load();
      say(t('deviceSignedOut'));
    });
  const everywhere = attempt(async () => {
    if (window.confirm(t('signOutEverywhereConfirm'))) await signOut(true);
  });
  const changePassword = attempt(async (event) => {
    const form = new FormData(event.target);
    await tally.me.changePassword(String(form.get('current')), String(form.get('new')));
    event.target.reset();
    say(t('passwordChanged'));
  });
  const exportData = attempt(async () => {
    const data = await tally.me.export();
    saveFile(JSON.stringify(data, null, 2), 'tally-my-data.json', 'application/json');
    say(t('downloaded', 'tally-my-data.json'));
  });
  const deleteAccount = attempt(async () => {
    if (!window.confirm(t('deleteAccountConfirm'))) return;
    await tally.me.delete();
    signedOut(t('accountDeleted'));
  });

  return html`<section>
      <h1>${t('account')}</h1>
      <p>${me?.name} <span class="muted">${me?.email}</span></p>
      <button type="button" id="sign-out" onClick=${attempt(() => signOut(false))}>${t('signOut')}</button>
      <${AccountToolLinks} />
    </section>
    <${EmailSection} />
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">${t('sessions')}</h2>
      <ul class="plain" id="sessions">
        ${sessions.map(
          (s) => html`<li key=${s.id} class="row" data-session-id=${s.id}>
            <span class="grow">${s.userAgent ?? t('unknownDevice')} ${s.current ? html`<strong>${t('thisDevice')}</strong>` : ''}
              <br /><span class="muted">${s.ip ?? ''} · ${t('lastUsed', formatDateTime(s.lastUsedAt))}</span></span>
            <button type="button" onClick=${revoke(s)}>${t('signOut')}</button>
          </li>`,
        )}
      </ul>
      <button type="button" onClick=${everywhere}>${t('signOutEverywhere')}</button>
    </section>
    <section aria-labelledby="password-title">
      <h2 id="password-title">${t('changePassword')}</h2>
      <form id="password-form" onSubmit=${changePassword}>
        <${Field} label=${t('currentPassword')} name="current" type="password" required autocomplete="current-password" />
        <${Field} label=${t('newPassword')} name="new" type="password" required minlength="8" autocomplete="new-password" />
        <button type="submit">${t('changePassword')}</button>
      </form>
    </section>
    <section aria-labelledby="data-title">
      <h2 id="data-title">${t('myData')}</h2>
      <div class="row">
        <button type="button" onClick=${exportData}>${t('exportData')}</button>
        <button type="button" onClick=${deleteAccount}>${t('deleteAccount')}</button>
      </div>
    </section>`;
}
