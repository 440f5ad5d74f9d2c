// The groups list (and making one), and joining a group by an invite link (API.md §3, §3.2).
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { ClaimableMembers } from './email.js';
import { JoinByCode } from './invites.js';
import { t } from './messages.js';
import { attempt, describe, say, tally } from './session.js';
import { MyStats } from './stats.js';
import { Field, go } from './ui.js';

export function GroupsScreen() {
  const [groups, setGroups] = useState();
  // Which groups: all, the active ones or the archived ones (`?archived=`, API.md §3).
  const [shown, setShown] = useState('all');
  useEffect(() => {
    tally.groups.list({ limit: 100, ...(shown === 'all' ? {} : { archived: shown === 'archived' }) }).then(
      (page) => setGroups(page.data),
      (error) => say(describe(error), true),
    );
  }, [shown]);
  const create = attempt(async (event) => {
    const form = new FormData(event.target);
    const group = await tally.groups.create({
      name: String(form.get('name')).trim(),
      currency: String(form.get('currency')).trim().toUpperCase(),
    });
    go(`#/g/${group.id}`);
  });
  return html`<section>
      <h1>${t('groups')}</h1>
      <label>${t('groupsShown')} <select id="group-filter" value=${shown} onChange=${(event) => setShown(event.target.value)}>
        ${['all', 'active', 'archived'].map((v) => html`<option key=${v} value=${v}>${t(`shownGroups.${v}`)}</option>`)}
      </select></label>
      ${
        groups === undefined
          ? html`<p>${t('loading')}</p>`
          : groups.length === 0
            ? html`<p class="muted">${t('noGroups')}</p>`
            : html`<ul class="plain" id="group-list">
                ${groups.map(
                  (g) =>
                    html`<li key=${g.id}><a href=${`#/g/${g.id}`}>${g.name}</a> <span class="muted">${g.currency}</span>${
                      g.archivedAt ? html` <span class="badge archived">${t('archived')}</span>` : ''
                    }</li>`,
                )}
              </ul>`
      }
    </section>
    <${MyStats} />
    <${ClaimableMembers} />
    <${JoinByCode} />
    <section>
      <h2>${t('newGroup')}</h2>
      <form id="group-form" onSubmit=${create}>
        <${Field} label=${t('groupName')} name="name" required maxlength="100" />
        <${Field} label=${t('currency')} name="currency" defaultValue="EUR" required pattern="[A-Za-z]{3}" maxlength="3" />
        <button class="primary" type="submit">${t('create')}</button>
      </form>
    </section>`;
}

export function JoinScreen({ code }) {
  const [preview, setPreview] = useState();
  useEffect(() => {
    tally.invites.preview(code).then(setPreview, (error) => say(describe(error), true));
  }, [code]);
  const accept = attempt(async (event) => {
    const asMember = String(new FormData(event.target).get('asMember') ?? '');
    const group = await tally.invites.accept(code, asMember ? { asMember } : {});
    say(t('joined', group.name));
    go(`#/g/${group.id}`);
  });
  if (!preview) return html`<section><h1>${t('join')}</h1><p>${t('loading')}</p></section>`;
  if (preview.isMember) go(`#/g/${preview.groupId}`);
  return html`<section>
    <h1>${t('join')}</h1>
    <p>${t('joinSummary', preview.groupName, preview.memberCount)}</p>
    <form onSubmit=${accept}>
      ${
        preview.pendingMembers.length > 0 &&
        html`<label>${t('joinAs')}
          <select name="asMember">
            <option value="">${t('joinAsNew')}</option>
            ${preview.pendingMembers.map((m) => html`<option value=${m.userId}>${m.name}</option>`)}
          </select></label>`
      }
      <button class="primary" type="submit">${t('join')}</button>
    </form>
  </section>`;
}
