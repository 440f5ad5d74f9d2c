// Invite links beyond making one (API.md §3.2): a group's live links (each revocable: whoever holds
// it can no longer join), and joining by a link or code pasted on the groups screen.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from './messages.js';
import { formatDateTime } from './money.js';
import { attempt, describe, say, tally } from './session.js';
import { Field, go } from './ui.js';

/** The code of a pasted invite: a link of this app (`#/join/<code>`), of the demo (`?invite=`), or the code. */
const codeOf = (text) => /(?:join\/|invite=)?([A-Za-z0-9_-]{43})\s*$/.exec(text.trim())?.[1];

export function JoinByCode() {
  const join = attempt((event) => {
    const code = codeOf(String(new FormData(event.target).get('code') ?? ''));
    if (!code) throw new Error(t('invites.notALink'));
    go(`#/join/${code}`);
  });
  return html`<section aria-labelledby="join-code-title">
    <h2 id="join-code-title">${t('invites.haveOne')}</h2>
    <form id="join-code-form" onSubmit=${join}>
      <${Field} label=${t('invites.paste')} name="code" required autocomplete="off" />
      <button type="submit">${t('invites.open')}</button>
    </form>
  </section>`;
}

/** The group's live invite links (their codes are never shown again: made, expiry, revoke). */
export function LiveInvites({ groupId, made }) {
  const [invites, setInvites] = useState([]);
  const load = () => tally.invites.list(groupId).then(setInvites);
  useEffect(() => {
    // Offline the group shows what the device knows; these need the network (nothing to say then).
    if (navigator.onLine) load().catch((error) => say(describe(error), true));
  }, [groupId, made]);
  const revoke = (invite) =>
    attempt(async () => {
      await tally.invites.revoke(groupId, invite.id);
      await load();
      say(t('invites.revoked'));
    });
  if (invites.length === 0) return null;
  return html`<ul class="plain" id="live-invites">
    ${invites.map(
      (invite) => html`<li key=${invite.id} class="row">
        <span class="grow">${t('invites.live', formatDateTime(invite.createdAt), formatDateTime(invite.expiresAt))}</span>
        <button type="button" onClick=${revoke(invite)}>${t('invites.revoke')}</button>
      </li>`,
    )}
  </ul>`;
}
