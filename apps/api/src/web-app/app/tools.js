// The tools screens (issue 35): a group's rates, import and webhooks; the account's notifications and
// API keys; and the links mails and pushes carry (`#verify-email=`, `#reset=`, `#unsubscribe=`,
// `#group=`), which work before sign-in. main.js asks here first.
import { html } from 'htm/preact';
import { ApiKeysScreen } from './api-keys.js';
import { ForgotScreen, ResetScreen } from './email.js';
import { ImportScreen } from './import.js';
import { t } from './messages.js';
import { NotificationsScreen } from './notifications.js';
import { RatesScreen } from './rates.js';
import { WebhooksScreen } from './webhooks.js';

/** A group's tools, by the route's third part (`#/g/<id>/rates`). */
const GROUP_TOOLS = { rates: RatesScreen, import: ImportScreen, webhooks: WebhooksScreen };
/** The account's tools (`#/account/notifications`). */
const ACCOUNT_TOOLS = { notifications: NotificationsScreen, 'api-keys': ApiKeysScreen };

/** The screen of a tools route for a signed-in user, or undefined. */
export function toolScreen([first, id, second]) {
  const group = first === 'g' && id && GROUP_TOOLS[second];
  if (group) return html`<${group} groupId=${id} key=${`${second}-${id}`} />`;
  const account = first === 'account' && ACCOUNT_TOOLS[id];
  if (account) return html`<${account} />`;
  return undefined;
}

/** The screen of a route that works signed out too (a mailed password link), or undefined. */
export function publicScreen([first]) {
  if (first === 'forgot') return html`<${ForgotScreen} />`;
  if (first === 'reset') return html`<${ResetScreen} />`;
  return undefined;
}

/** Links to a group's tools, for its screen. */
export function GroupToolLinks({ groupId }) {
  return html`<nav aria-label=${t('tools.groupTools')} class="row tools">
    <a href=${`#/g/${groupId}/rates`} id="rates-link">${t('tools.rates')}</a>
    <a href=${`#/g/${groupId}/import`} id="import-link">${t('tools.import')}</a>
    <a href=${`#/g/${groupId}/webhooks`} id="webhooks-link">${t('tools.webhooks')}</a>
  </nav>`;
}

/** Links to the account's tools, for its screen. */
export function AccountToolLinks() {
  return html`<nav aria-label=${t('tools.accountTools')} class="row tools">
    <a href="#/account/notifications" id="notifications-link">${t('tools.notifications')}</a>
    <a href="#/account/api-keys" id="api-keys-link">${t('tools.apiKeys')}</a>
  </nav>`;
}
