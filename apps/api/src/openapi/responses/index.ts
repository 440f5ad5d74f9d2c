import type { JsonSchema } from '../joi-to-json-schema';
import { activitySchemas } from './activity';
import { apiKeySchemas } from './api-keys';
import { categorySchemas } from './categories';
import { commentSchemas } from './comments';
import { pageOf } from './common';
import { serviceSchemas } from './errors';
import { eventSchemas } from './events';
import { fxSchemas } from './fx';
import { historySchemas } from './history';
import { importSchemas } from './imports';
import { moneySchemas } from './money';
import { notificationSchemas } from './notifications';
import { peopleSchemas } from './people';
import { realtimeSchemas } from './realtime';
import { receiptSchemas } from './receipts';
import { recurringSchemas } from './recurring';
import { sessionSchemas } from './sessions';
import { webhookSchemas } from './webhooks';

export { pageOf } from './common';
export { type DocumentedErrorCode, ERROR_CODES, ERROR_STATUS } from './errors';

/** The pages of the lists whose items are described above (the other areas page their own). */
const corePages = Object.fromEntries(
  ['Group', 'Expense', 'Settlement', 'Event'].map((item) => [`${item}Page`, pageOf(item)]),
);

/** JSON Schemas of what the API answers, by area; the document lists them in this order. */
export const responseSchemas: Record<string, JsonSchema> = {
  ...peopleSchemas,
  ...moneySchemas,
  ...eventSchemas(),
  ...realtimeSchemas(),
  ...serviceSchemas,
  ...corePages,
  ...recurringSchemas,
  ...importSchemas,
  ...fxSchemas,
  ...activitySchemas,
  ...commentSchemas,
  ...sessionSchemas,
  ...apiKeySchemas,
  ...webhookSchemas,
  ...notificationSchemas,
  ...historySchemas,
  ...receiptSchemas,
  ...categorySchemas,
};
