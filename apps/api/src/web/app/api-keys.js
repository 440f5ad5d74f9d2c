// API keys for scripts (API.md §2.6): list them, create one (its secret shown once), revoke one.
import { tally } from './client.js';
import { $, element, handle, say } from './dom.js';

function describeKey(key) {
  const used = key.lastUsedAt ? `last used ${new Date(key.lastUsedAt).toLocaleString()}` : 'never used';
  const expires = key.expiresAt ? `expires ${new Date(key.expiresAt).toLocaleString()}` : 'no expiry';
  return `${key.name} · ${key.prefix}… · ${key.scopes.join(' + ')} · ${used} · ${expires}`;
}

export async function listApiKeys() {
  const keys = await tally.apiKeys.list();
  $('api-keys').replaceChildren(
    ...keys.map((key) => {
      const item = element('li', describeKey(key));
      item.dataset.keyId = key.id;
      const button = element('button', 'Revoke', { type: 'button' });
      button.addEventListener(
        'click',
        handle(async () => {
          if (!window.confirm(`Revoke the key "${key.name}"? Scripts using it stop at once.`)) return;
          await tally.apiKeys.revoke(key.id);
          await listApiKeys();
          say(`The key "${key.name}" is revoked.`);
        }),
      );
      item.append(' ', button);
      return item;
    }),
  );
  if (keys.length === 0) $('api-keys').append(element('li', 'No API keys.'));
}

$('refresh-api-keys').addEventListener('click', handle(listApiKeys));

$('api-key-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    const days = Number(form.get('days'));
    const request = { name: String(form.get('name')), scopes: form.getAll('scopes').map(String) };
    if (days > 0) request.expiresAt = new Date(Date.now() + days * 86_400_000).toISOString();
    const created = await tally.apiKeys.create(request);
    event.target.reset();
    // Shown once: the server keeps only its hash. As text, in a read-only field the user can copy.
    $('api-key-secret').value = created.secret;
    $('api-key-secret-box').hidden = false;
    await listApiKeys();
    say(`The key "${created.name}" is made: copy its secret now, it is not shown again.`);
  }),
);

$('api-key-secret-done').addEventListener('click', () => {
  $('api-key-secret').value = '';
  $('api-key-secret-box').hidden = true;
});
