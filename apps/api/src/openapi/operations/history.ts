import { historyQuery } from '../../schemas';
import type { Operation } from './types';

/** The history of an expense or a settlement (API.md §15). */
export const historyOperations: Operation[] = (['expense', 'settlement'] as const).map(
  (target): Operation => {
    const Target = target === 'expense' ? 'Expense' : 'Settlement';
    return {
      method: 'get',
      path: `/v1/${target}s/{${target}Id}/history`,
      operationId: `get${Target}History`,
      tag: 'History',
      summary: `Every version of a${target === 'expense' ? 'n' : ''} ${target}, with who changed what`,
      description:
        `Oldest first (by the group log’s \`seq\`): one entry per \`${target}.*\` event, with who, when, ` +
        (target === 'expense' ? 'the version and ETag, ' : '') +
        'the record as the change left it and a field-by-field diff against the version before (`paidBy`, ' +
        '`shares` and the split’s weights per member). Any member of the group may read it, also after the ' +
        `${target} was deleted; anyone else gets \`404\`. The log is kept \`EVENT_RETENTION_DAYS\`: ` +
        '`truncated: true` says older versions are gone. Comments (API.md §5.2) are a separate list; a client ' +
        'shows both in one timeline by `occurredAt`/`createdAt`. Cursor-paginated: `limit` 1–50 (default 20) ' +
        'and the opaque `cursor` of the previous page. Unknown query parameters are rejected with ' +
        '`422 validation_failed`, as is a cursor this API did not issue. See API.md §15.',
      query: historyQuery,
      success: [{ status: 200, description: 'One page of versions', schema: `${Target}HistoryPage` }],
    };
  },
);
