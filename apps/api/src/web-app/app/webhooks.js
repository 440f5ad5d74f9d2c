// A group's webhook endpoints (API.md §12), which any member manages: each with its state (and why it
// is disabled), added (its signing secret shown once), switched off and on, deleted; an endpoint's
// delivery log, with "send again".
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from './messages.js';
import { formatDateTime } from './money.js';
import { attempt, describe, say, tally } from './session.js';
import { Field } from './ui.js';

/** One line of a delivery: its event, state, attempts and the last answer. */
function deliveryText(d) {
  const answer =
    d.lastError ??
    (d.lastStatusCode === null ? t('webhooks.notTried') : t('webhooks.answered', d.lastStatusCode));
  const latency = d.lastLatencyMs === null ? '' : ` (${d.lastLatencyMs} ms)`;
  const next =
    d.status === 'pending' && d.nextAttemptAt
      ? ` · ${t('webhooks.nextTry', formatDateTime(d.nextAttemptAt))}`
      : '';
  return `#${d.seq} ${d.eventType} · ${t(`webhooks.status.${d.status}`)} · ${t('webhooks.attempts', d.attempts)} · ${answer}${latency}${next}`;
}

function Deliveries({ groupId, hook }) {
  const [page, setPage] = useState();
  const load = () => tally.webhooks.deliveries(groupId, hook.id, { limit: 20 }).then(setPage);
  useEffect(() => {
    load().catch((error) => say(describe(error), true));
  }, [hook.id]);
  const resend = (d) =>
    attempt(async () => {
      await tally.webhooks.resend(groupId, hook.id, d.id);
      say(t('webhooks.resent', d.seq));
      await load();
    });
  return html`<div class="deliveries">
    <div class="row"><h3 class="grow">${t('webhooks.deliveries')}</h3>
      <button type="button" onClick=${attempt(load)}>${t('webhooks.refresh')}</button></div>
    ${page?.data.length === 0 && html`<p class="muted">${t('webhooks.noDeliveries')}</p>`}
    <ul class="plain webhook-deliveries">
      ${(page?.data ?? []).map(
        (d) => html`<li key=${d.id} class="row" data-status=${d.status}>
          <span class="grow">${deliveryText(d)}</span>
          <button type="button" onClick=${resend(d)}>${t('webhooks.sendAgain')}</button>
        </li>`,
      )}
    </ul>
  </div>`;
}

/** The form fields of an endpoint (URL, description, event types), filled with `hook`'s when editing. */
function WebhookFields({ hook }) {
  return html`<${Field} label=${t('webhooks.url')} name="url" type="url" required maxlength="2048" autocomplete="off"
      defaultValue=${hook?.url} />
    <${Field} label=${t('webhooks.description')} name="description" maxlength="200" autocomplete="off"
      defaultValue=${hook?.description ?? ''} />
    <${Field} label=${t('webhooks.eventTypes')} name="eventTypes" autocomplete="off"
      defaultValue=${hook?.eventTypes.join(', ') ?? ''} />`;
}

/** What the fields say: the URL, the description (empty: none), the event types (none: every type). */
const fieldsOf = (form) => ({
  url: String(form.get('url')).trim(),
  description: String(form.get('description') ?? '').trim(),
  eventTypes: String(form.get('eventTypes') ?? '')
    .split(',')
    .map((type) => type.trim())
    .filter(Boolean),
});

export function WebhooksScreen({ groupId }) {
  const [hooks, setHooks] = useState();
  const [secret, setSecret] = useState();
  const [open, setOpen] = useState();
  const load = () => tally.webhooks.list(groupId).then(setHooks);
  useEffect(() => {
    load().catch((error) => say(describe(error), true));
  }, [groupId]);

  const create = attempt(async (event) => {
    const { description, ...fields } = fieldsOf(new FormData(event.target));
    const hook = await tally.webhooks.create(groupId, { ...fields, ...(description ? { description } : {}) });
    event.target.reset();
    setSecret(hook.secret);
    await load();
    say(t('webhooks.added', hook.url));
  });
  const [editing, setEditing] = useState();
  const edit = (hook) =>
    attempt(async (event) => {
      const form = new FormData(event.target);
      const updated = await tally.webhooks.update(groupId, hook.id, fieldsOf(form));
      setEditing(undefined);
      await load();
      say(t('webhooks.edited', updated.url));
    });
  const toggle = (hook) =>
    attempt(async () => {
      await tally.webhooks.update(groupId, hook.id, { enabled: !hook.enabled });
      await load();
    });
  // The old secret keeps signing for a day (API.md §12.1), so the receiver can switch without a gap.
  const rotate = (hook) =>
    attempt(async () => {
      setSecret((await tally.webhooks.rotateSecret(groupId, hook.id)).secret);
      say(t('webhooks.rotated', hook.url));
    });
  const remove = (hook) =>
    attempt(async () => {
      if (!window.confirm(t('webhooks.deleteConfirm', hook.url))) return;
      await tally.webhooks.delete(groupId, hook.id);
      if (open === hook.id) setOpen(undefined);
      await load();
      say(t('webhooks.deleted', hook.url));
    });

  return html`<h1>${t('tools.webhooks')}</h1>
    <p><a href=${`#/g/${groupId}`}>${t('tools.backToGroup')}</a></p>
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">${t('webhooks.endpoints')}</h2>
      ${hooks?.length === 0 && html`<p class="muted">${t('webhooks.none')}</p>`}
      <ul class="plain" id="webhook-list">
        ${(hooks ?? []).map(
          (hook) => html`<li key=${hook.id} data-webhook-id=${hook.id}>
            <div class="row">
              <span class="grow"><strong>${hook.url}</strong>${hook.description ? ` · ${hook.description}` : ''}
                <br /><span class="muted">${hook.eventTypes.length ? hook.eventTypes.join(', ') : t('webhooks.everyEvent')} ·
                ${hook.enabled ? t('webhooks.upTo', hook.deliveredSeq) : t('webhooks.disabled', hook.disabledReason)}</span></span>
              <button type="button" aria-expanded=${open === hook.id} onClick=${() => setOpen(open === hook.id ? undefined : hook.id)}>${t('webhooks.deliveries')}</button>
              <button type="button" aria-expanded=${editing === hook.id} onClick=${() => setEditing(editing === hook.id ? undefined : hook.id)}>${t('webhooks.edit')}</button>
              <button type="button" onClick=${toggle(hook)}>${hook.enabled ? t('webhooks.disable') : t('webhooks.enable')}</button>
              <button type="button" onClick=${rotate(hook)}>${t('webhooks.rotate')}</button>
              <button type="button" onClick=${remove(hook)}>${t('delete')}</button>
            </div>
            ${
              editing === hook.id &&
              html`<form class="webhook-edit" onSubmit=${edit(hook)}>
                <${WebhookFields} hook=${hook} />
                <button class="primary" type="submit">${t('webhooks.save')}</button>
              </form>`
            }
            ${open === hook.id && html`<${Deliveries} groupId=${groupId} hook=${hook} />`}
          </li>`,
        )}
      </ul>
    </section>
    ${
      secret &&
      html`<section aria-labelledby="secret-title" id="webhook-secret-box">
        <h2 id="secret-title">${t('webhooks.secret')}</h2>
        <label>${t('webhooks.secretOnce')} <input id="webhook-secret" readonly value=${secret} /></label>
        <button type="button" onClick=${() => setSecret(undefined)}>${t('copied')}</button>
      </section>`
    }
    <section aria-labelledby="new-webhook-title">
      <h2 id="new-webhook-title">${t('webhooks.new')}</h2>
      <form id="webhook-form" onSubmit=${create}>
        <${WebhookFields} />
        <button class="primary" type="submit">${t('add')}</button>
      </form>
    </section>`;
}
