import type { Success } from './types';

/** Answers several operations give alike, written once. */

/** `200` with one page of a cursor-paginated list (`…Page`, see `responses/pages`). */
export const page = (schema: string, what: string): Success => ({
  status: 200,
  description: `One page of ${what}`,
  schema,
});

/** `204` and no body. */
export const noContent = (description: string): Success[] => [{ status: 204, description }];

/** `202`: a verification link is mailed after the answer. */
export const EMAIL_LINK_SENT: Success = {
  status: 202,
  description: 'A link to confirm the address is on its way (after the answer)',
  schema: 'EmailLinkSent',
};
