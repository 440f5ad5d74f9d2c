import type { JsonSchema } from '../joi-to-json-schema';
import { closed, id, pageOf, timestamp } from './common';

const Comment: JsonSchema = closed({
  id: id('cmt', 'Comment'),
  groupId: id('grp', 'Group'),
  targetType: { type: 'string', enum: ['expense', 'settlement'], description: 'What the comment is on' },
  targetId: { type: 'string', description: 'The expense or settlement id' },
  authorId: id('usr', 'User'),
  text: {
    type: 'string',
    minLength: 1,
    description: 'Exactly as sent: 1–2000 Unicode code points, no trimming, no HTML interpretation',
  },
  createdAt: timestamp,
});
const CommentPage: JsonSchema = pageOf('Comment');

/** Comments (API.md §5.2). */
export const commentSchemas: Record<string, JsonSchema> = { Comment, CommentPage };
