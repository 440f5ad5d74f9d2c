import { createSettlementBody } from '../../schemas';
import { CURRENCY_BOUND_NOTE, NOT_MEMBER_NOTE } from './notes';
import { noContent } from './shapes';
import type { Operation } from './types';

/** Settlements (API.md §5). */
export const settlementsOperations: Operation[] = [
  {
    method: 'post',
    path: '/v1/settlements',
    operationId: 'createSettlement',
    tag: 'Settlements',
    summary: 'Record that one member paid another back',
    description:
      '`fromUserId` ≠ `toUserId` (`422 validation_failed`); both must be members (`422 not_a_member`). ' +
      `\`currency\` defaults to the group’s. ${CURRENCY_BOUND_NOTE}`,
    body: createSettlementBody,
    idempotency: 'required',
    success: [{ status: 201, description: 'The settlement', schema: 'Settlement', headers: ['Location'] }],
    errors: ['not_found', 'not_a_member', 'limit_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/settlements/{settlementId}',
    operationId: 'getSettlement',
    tag: 'Settlements',
    summary: 'A settlement',
    description: 'An addition to the contract (API.md §5 lists no single-settlement read). Deleted: `404`.',
    success: [{ status: 200, description: 'The settlement', schema: 'Settlement' }],
  },
  {
    method: 'delete',
    path: '/v1/settlements/{settlementId}',
    operationId: 'deleteSettlement',
    tag: 'Settlements',
    summary: 'Undo a settlement',
    description: `Deleting an already deleted settlement is \`204\` again. ${NOT_MEMBER_NOTE}`,
    idempotency: 'required',
    success: noContent('Deleted'),
    errors: ['not_a_member'],
  },
];
