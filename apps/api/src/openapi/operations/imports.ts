import { createImportBody, listQuery } from '../../schemas';
import { LIST_NOTE } from './notes';
import { page } from './shapes';
import type { Operation } from './types';

/** Splitwise imports (API.md §6b). */
export const importsOperations: Operation[] = [
  {
    method: 'post',
    path: '/v1/groups/{groupId}/imports',
    operationId: 'createImport',
    tag: 'Imports',
    summary: 'Import a Splitwise export',
    description:
      '`csv` is the text of a Splitwise CSV export (header `Date,Description,Category,Cost,Currency`, then one ' +
      'net column per person; a blank line and the `Total balance` row at the end); `members` maps each person ' +
      'column to a member of the group (active or pending). Each row becomes an expense (payers, shares) or, for ' +
      'a `Payment` row, a settlement, giving every member exactly the net the file says, with the usual ' +
      '`expense.created`/`settlement.created` events between `import.started` and `import.completed`. ' +
      'Synchronous: answers when the whole file is done. The same file again (any key) is the same import: ' +
      'nothing is created twice, rows already there count as `existing`; a retry after a crash or a failure ' +
      'resumes where the import stopped. A file that is no Splitwise export is `422 validation_failed` naming ' +
      'its line (`errors[0].path` `csv`), and nothing is written; a row that cannot be imported (or stored) is ' +
      'refused with its line and reason and the rest goes on: the report counts them (`refusedCount`) and ' +
      'lists the first 20 (`refused`), the rest are paged from `…/refusals`. Bounds: at most `IMPORT_MAX_ROWS` ' +
      'rows (10,000 by default) and 200 person columns, else `422 limit_exceeded` (`importRows`, ' +
      '`importPeople`) and nothing is written; the body may be up to `IMPORT_MAX_BYTES` (5 MiB by default), ' +
      'not 64 KiB, else `413`. See API.md §6b.',
    body: createImportBody,
    idempotency: 'required',
    success: [
      { status: 201, description: 'The import’s report', schema: 'ImportReport', headers: ['Location'] },
    ],
    errors: ['not_a_member', 'limit_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/imports/{importId}',
    operationId: 'getImport',
    tag: 'Imports',
    summary: 'An import’s report',
    description:
      'Created, existing and refused rows (their number, and the first 20 with line and reason; ' +
      '`…/refusals` pages them all); `404` for a non-member.',
    success: [{ status: 200, description: 'The import’s report', schema: 'ImportReport' }],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/imports/{importId}/refusals',
    operationId: 'listImportRefusals',
    tag: 'Imports',
    summary: 'An import’s refused rows',
    description: `Every refused row of the import once, by line (the last run's, for a file uploaded again). ${LIST_NOTE}`,
    query: listQuery,
    success: [page('ImportRefusalPage', 'refused rows')],
  },
];
