import { BOUNDS } from '../../bounds';
import { commentBody, listQuery } from '../../schemas';
import { LIST_NOTE } from './notes';
import { noContent, page } from './shapes';
import type { Operation } from './types';

/** Comments on expenses and settlements (API.md §5.2). */
export const commentsOperations: Operation[] = [
  ...(['expense', 'settlement'] as const).flatMap((target): Operation[] => {
    const Target = target === 'expense' ? 'Expense' : 'Settlement';
    const path = `/v1/${target}s/{${target}Id}/comments`;
    return [
      {
        method: 'post',
        path,
        operationId: `create${Target}Comment`,
        tag: 'Comments',
        summary: `Comment on a${target === 'expense' ? 'n' : ''} ${target}`,
        description:
          '`text` is stored and returned exactly as sent (no trimming, no HTML): 1–2000 Unicode code points, ' +
          'not only whitespace, line feeds and tabs but no other control characters. Appends `comment.created` to the group’s log. A retried request (same ' +
          `\`Idempotency-Key\`) creates one comment. A deleted ${target}, or one in a group the caller is not in, is \`404\`. ` +
          `At most ${BOUNDS.commentsPerTarget} live comments on one ${target} (\`commentsPerTarget\`, API.md §9.1): one more is \`422 limit_exceeded\`.`,
        body: commentBody,
        idempotency: 'required',
        success: [{ status: 201, description: 'The comment', schema: 'Comment', headers: ['Location'] }],
        errors: ['limit_exceeded'],
      },
      {
        method: 'get',
        path,
        operationId: `list${Target}Comments`,
        tag: 'Comments',
        summary: `The comments on a${target === 'expense' ? 'n' : ''} ${target}`,
        description:
          `Oldest first (by \`createdAt\`, then id). Deleted comments are not listed. A deleted ${target} is \`404\` ` +
          `(its comments come back when it is restored), as is one in a group the caller is not in. ${LIST_NOTE}`,
        query: listQuery,
        success: [page('CommentPage', 'comments')],
      },
    ];
  }),
  {
    method: 'delete',
    path: '/v1/comments/{commentId}',
    operationId: 'deleteComment',
    tag: 'Comments',
    summary: 'Delete a comment',
    description:
      'By its author only: another member of the group gets `403 forbidden`, anyone else `404`. Appends ' +
      '`comment.deleted`; deleting a deleted comment is `204` again (no second event).',
    idempotency: 'required',
    success: noContent('Deleted'),
    errors: ['forbidden'],
  },
];
