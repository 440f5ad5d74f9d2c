import type { DocumentedErrorCode } from '../responses';
import { activityOperations } from './activity';
import { apiKeysOperations } from './api-keys';
import { authOperations } from './auth';
import { balancesOperations } from './balances';
import { categoriesOperations } from './categories';
import { commentsOperations } from './comments';
import { expensesOperations } from './expenses';
import { groupListsOperations } from './group-lists';
import { groupsOperations } from './groups';
import { historyOperations } from './history';
import { importsOperations } from './imports';
import { invitesOperations } from './invites';
import { notificationsOperations } from './notifications';
import { opsOperations } from './ops';
import { realtimeOperations } from './realtime';
import { receiptsOperations } from './receipts';
import { recurringOperations } from './recurring';
import { settlementsOperations } from './settlements';
import type { Operation, Success } from './types';
import { webhooksOperations } from './webhooks';

export { PATH_PARAMETER_DESCRIPTIONS } from './notes';
export { WEBSOCKET_DESCRIPTION } from './realtime';
export type { HeaderName, HttpMethod, Operation, Success } from './types';

/** Its own problems, and `not_found` where an id in the path may name nothing the caller can see. */
function withNotFound(op: Operation): DocumentedErrorCode[] {
  const errors = op.errors ?? [];
  return op.path.includes('{') && !errors.includes('not_found') ? ['not_found', ...errors] : errors;
}

/**
 * What every entry would otherwise repeat, filled in from the rest of it: `/v1` operations (but the
 * WebSocket, refused before the HTTP layers) are rate limited, a declared `body` is parsed as JSON,
 * authenticated reads answer `Cache-Control: private, no-cache`, and an operation with an id in its
 * path answers `404 not_found` (an unknown id, or one of a group the caller is not in).
 */
function withDefaults(op: Operation): Operation {
  const v1 = op.path.startsWith('/v1/') && !op.websocket;
  const cached = op.method === 'get' && v1 && !op.public;
  const withCacheControl = (success: Success): Success =>
    success.headers?.includes('Cache-Control')
      ? success
      : { ...success, headers: [...(success.headers ?? []), 'Cache-Control'] };
  return {
    ...op,
    rateLimited: op.rateLimited ?? v1,
    jsonBody: op.jsonBody ?? op.body !== undefined,
    success: cached ? op.success.map(withCacheControl) : op.success,
    errors: withNotFound(op),
  };
}

/** Every documented operation, by area; the document lists them (and their paths) in this order. */
export const OPERATIONS: Operation[] = [
  ...authOperations,
  ...apiKeysOperations,
  ...groupsOperations,
  ...activityOperations,
  ...invitesOperations,
  ...balancesOperations,
  ...groupListsOperations,
  ...expensesOperations,
  ...commentsOperations,
  ...historyOperations,
  ...settlementsOperations,
  ...recurringOperations,
  ...importsOperations,
  ...webhooksOperations,
  ...notificationsOperations,
  ...receiptsOperations,
  ...categoriesOperations,
  ...realtimeOperations,
  ...opsOperations,
].map(withDefaults);

const BY_ID = new Map(OPERATIONS.map((op) => [op.operationId, op]));

/** The operation with this `operationId`; throws on an unknown id (a typo must fail at start-up). */
export function operationById(operationId: string): Operation {
  const op = BY_ID.get(operationId);
  if (!op) throw new Error(`openapi: no operation has the operationId ${operationId}`);
  return op;
}
