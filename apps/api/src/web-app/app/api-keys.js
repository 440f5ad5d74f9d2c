// API keys for scripts (API.md §2.6): listed by name and prefix, made with scopes and an optional
// expiry (the secret shown once, as text in a read-only field), revoked.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from './messages.js';
import { formatDateTime } from './money.js';
import { attempt, describe, say, tally } from './session.js';
import { Field } from './ui.js';

export function ApiKeysScreen() {
  const [keys, setKeys] = useState();
  const [made, setMade] = useState();
  const load = () => tally.apiKeys.list().then(setKeys);
  useEffect(() => {
    load().catch((error) => say(describe(error), true));
  }, []);

  const create = attempt(async (event) => {
    const form = new FormData(event.target);
    const days = Number(form.get('days'));
    const created = await tally.apiKeys.create({
      name: String(form.get('name')).trim(),
      scopes: form.getAll('scopes').map(String),
      ...(days > 0 ? { expiresAt: new Date(Date.now() + days * 86_400_000).toISOString() } : {}),
    });
    event.target.reset();
    // Shown once: the server keeps only its hash.
    setMade(created);
    await load();
    say(t('apiKeys.made', created.name));
  });
  const revoke = (key) =>
    attempt(async () => {
      if (!window.confirm(t('apiKeys.revokeConfirm', key.name))) return;
      await tally.apiKeys.revoke(key.id);
      await load();
      say(t('apiKeys.revoked', key.name));
    });

  return html`<h1>${t('tools.apiKeys')}</h1>
    <p><a href="#/account">${t('tools.backToAccount')}</a></p>
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">${t('apiKeys.yours')}</h2>
      ${keys?.length === 0 && html`<p class="muted" id="no-api-keys">${t('apiKeys.none')}</p>`}
      <ul class="plain" id="api-keys">
        ${(keys ?? []).map(
          (key) => html`<li key=${key.id} class="row" data-key-id=${key.id}>
            <span class="grow"><strong>${key.name}</strong> <code>${key.prefix}…</code>
              <br /><span class="muted">${key.scopes.join(' + ')} ·
              ${key.lastUsedAt ? t('lastUsed', formatDateTime(key.lastUsedAt)) : t('apiKeys.neverUsed')} ·
              ${key.expiresAt ? t('apiKeys.expires', formatDateTime(key.expiresAt)) : t('apiKeys.noExpiry')}</span></span>
            <button type="button" onClick=${revoke(key)}>${t('apiKeys.revoke')}</button>
          </li>`,
        )}
      </ul>
    </section>
    ${
      made &&
      html`<section aria-labelledby="secret-title" id="api-key-secret-box">
        <h2 id="secret-title">${t('apiKeys.secretOf', made.name)}</h2>
        <label>${t('apiKeys.secretOnce')} <input id="api-key-secret" readonly value=${made.secret} /></label>
        <button type="button" id="api-key-secret-done" onClick=${() => setMade(undefined)}>${t('copied')}</button>
      </section>`
    }
    <section aria-labelledby="new-key-title">
      <h2 id="new-key-title">${t('apiKeys.new')}</h2>
      <form id="api-key-form" onSubmit=${create}>
        <${Field} label=${t('apiKeys.name')} name="name" required maxlength="100" autocomplete="off" />
        <fieldset><legend>${t('apiKeys.scopes')}</legend>
          <label class="inline"><input type="checkbox" name="scopes" value="read" checked /> ${t('apiKeys.read')}</label>
          <label class="inline"><input type="checkbox" name="scopes" value="write" /> ${t('apiKeys.write')}</label>
        </fieldset>
        <${Field} label=${t('apiKeys.days')} name="days" type="number" min="0" max="3650" inputmode="numeric" />
        <button class="primary" type="submit">${t('apiKeys.create')}</button>
      </form>
    </section>`;
}
