// A group's settings (API.md §3): its name, default currency (new records take it; existing ones
// keep theirs), which debts it shows (simplified or as recorded), and archiving (an archived group
// is read-only until unarchived).
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { etagOf } from '../../../../../packages/client/src/index';
import { t } from './messages.js';
import { attempt, describe, say, tally } from './session.js';
import { Field } from './ui.js';

export function GroupSettingsScreen({ groupId }) {
  const [group, setGroup] = useState();
  useEffect(() => {
    tally.groups.get(groupId).then(setGroup, (error) => say(describe(error), true));
  }, [groupId]);
  if (!group) return html`<section><p>${t('loading')}</p></section>`;

  const save = attempt(async (event) => {
    const form = new FormData(event.target);
    const updated = await tally.groups.update(
      groupId,
      {
        name: String(form.get('name')).trim(),
        currency: String(form.get('currency')).trim().toUpperCase(),
        simplifyDebts: form.get('simplifyDebts') === 'on',
      },
      { ifMatch: etagOf(group) },
    );
    setGroup(updated);
    say(t('settingsSaved'));
  });
  const toggleArchive = attempt(async () => {
    const updated = await tally.groups.setArchived(groupId, !group.archivedAt);
    setGroup(updated);
    say(updated.archivedAt ? t('archivedNow') : t('unarchivedNow'));
  });

  return html`<h1>${t('groupSettings')} <span class="muted">${group.name}</span></h1>
    <p><a href=${`#/g/${groupId}`}>${t('backToGroup')}</a></p>
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">${t('settings')}</h2>
      <form id="settings-form" onSubmit=${save}>
        <fieldset disabled=${Boolean(group.archivedAt)}>
          <legend class="visually-hidden">${t('settings')}</legend>
          <${Field} label=${t('groupName')} name="name" required maxlength="100" defaultValue=${group.name} />
          <${Field} label=${t('defaultCurrency')} name="currency" required pattern="[A-Za-z]{3}" maxlength="3" defaultValue=${group.currency} />
          <label class="inline"><input type="checkbox" name="simplifyDebts" defaultChecked=${group.simplifyDebts} /> ${t('simplifyDebts')}</label>
          <p class="muted">${t('simplifyDebtsHelp')}</p>
          <button class="primary" type="submit">${t('save')}</button>
        </fieldset>
      </form>
    </section>
    <section aria-labelledby="archive-title">
      <h2 id="archive-title">${t('archive')}</h2>
      <p class="muted">${group.archivedAt ? t('archivedHelp') : t('archiveHelp')}</p>
      <button type="button" id="archive-toggle" onClick=${toggleArchive}>${group.archivedAt ? t('unarchive') : t('archiveGroup')}</button>
    </section>`;
}
