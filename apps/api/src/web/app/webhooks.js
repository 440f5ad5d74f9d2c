// The open group's webhook endpoints (API.md §12), which any member manages: listed with their state
// (and why one is disabled), added (the secret is shown once), deleted; each one's delivery log with
// "send again".
import { tally } from './client.js';
import { $, element, handle, say } from './dom.js';
import { open } from './groups.js';

$('webhook-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    const groupId = open.group.id;
    const types = String(form.get('eventTypes') ?? '')
      .split(',')
      .map((type) => type.trim())
      .filter((type) => type !== '');
    const hook = await tally.webhooks.create(groupId, { url: String(form.get('url')), eventTypes: types });
    event.target.reset();
    await listWebhooks(groupId);
    say(`Added a webhook to ${hook.url}. Its signing secret, shown only now: ${hook.secret}`);
  }),
);

/** One line of an endpoint's state. */
function stateOf(hook) {
  const types = hook.eventTypes.length > 0 ? hook.eventTypes.join(', ') : 'every event';
  const state = hook.enabled ? `up to event ${hook.deliveredSeq} done` : `disabled: ${hook.disabledReason}`;
  return `${hook.url} (${types}), ${state} `;
}

/** One line of the delivery log. */
function deliveryText(d) {
  const answer =
    d.lastError ?? (d.lastStatusCode === null ? 'not tried yet' : `answered ${d.lastStatusCode}`);
  const latency = d.lastLatencyMs === null ? '' : ` in ${d.lastLatencyMs} ms`;
  const next = d.nextAttemptAt && d.status === 'pending' ? `, next try ${d.nextAttemptAt}` : '';
  return `#${d.seq} ${d.eventType}: ${d.status} after ${d.attempts} attempt(s), ${answer}${latency}${next} `;
}

/** The endpoint's newest deliveries, each with a button that sends it again. */
async function showDeliveries(groupId, hook) {
  const page = await tally.webhooks.deliveries(groupId, hook.id, { limit: 20 });
  if (open?.group.id !== groupId) return;
  $('webhook-deliveries-title').textContent = `Deliveries to ${hook.url}`;
  $('webhook-deliveries').replaceChildren(
    ...page.data.map((d) => {
      const item = element('li', deliveryText(d));
      const again = element('button', 'Send again', { type: 'button' });
      again.addEventListener(
        'click',
        handle(async () => {
          await tally.webhooks.resend(groupId, hook.id, d.id);
          say(`Event ${d.seq} will be sent again to ${hook.url}.`);
        }),
      );
      item.append(again);
      return item;
    }),
  );
  $('webhook-deliveries-section').hidden = false;
}

/** The open group's endpoints, each with its deliveries, a switch on or off, and a delete button. */
export async function listWebhooks(groupId) {
  const hooks = await tally.webhooks.list(groupId);
  if (open?.group.id !== groupId) return;
  $('webhook-deliveries-section').hidden = true;
  $('webhook-list').replaceChildren(
    ...hooks.map((hook) => {
      const item = element('li', stateOf(hook));
      item.dataset.webhookId = hook.id;
      const deliveries = element('button', 'Deliveries', { type: 'button' });
      deliveries.addEventListener(
        'click',
        handle(() => showDeliveries(groupId, hook)),
      );
      const toggle = element('button', hook.enabled ? 'Disable' : 'Enable', { type: 'button' });
      toggle.addEventListener(
        'click',
        handle(async () => {
          await tally.webhooks.update(groupId, hook.id, { enabled: !hook.enabled });
          await listWebhooks(groupId);
        }),
      );
      const remove = element('button', 'Delete', { type: 'button' });
      remove.addEventListener(
        'click',
        handle(async () => {
          await tally.webhooks.delete(groupId, hook.id);
          await listWebhooks(groupId);
          say(`Deleted the webhook to ${hook.url}.`);
        }),
      );
      item.append(deliveries, toggle, remove);
      return item;
    }),
  );
}
