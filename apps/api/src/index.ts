export type { GroupEvent } from '@tally/events';
export { type AccessTokens, createAccessTokens } from '@tally/http-kit';
export { type AppDeps, createApp } from './create-app';
export { requestContext } from './http/request-context';
