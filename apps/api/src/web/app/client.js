// The page's SDK client (apps/api/src/web/app.js): the browser build of the TypeScript SDK, served
// beside app.js. Tokens live in memory: a reload signs out.
import { TallyClient } from '../tally-client.js';

/** What an expired session does: session.js signs out (it sets this as it loads, before any request). */
let sessionExpired = () => {};

export const tally = new TallyClient({
  baseUrl: window.location.origin,
  onSessionExpired: () => sessionExpired(),
});

export function whenSessionExpires(action) {
  sessionExpired = action;
}
