// The demo web client (apps/api/src/web/web-client.ts): everything goes through the browser build of
// the TypeScript SDK, served beside this file (imported by app/client.js). Tokens live in memory: a
// reload signs out.
//
// One module per part of the page under app/, each wiring its forms and buttons as it loads; they
// share the SDK client (app/client.js), the DOM helpers (app/dom.js, text only: never HTML) and the
// amounts (app/money.js). The parts call each other (opening a group lists its expenses, an expense
// names its payer by the group open): their imports go in circles, which is safe as long as what a
// module runs as it loads uses only those three, which import no part. web-client.ts serves each
// module: a new one is added to its list (web-client.test.ts fails until it is).
import './app/session.js';
import './app/account.js';
import './app/api-keys.js';
import './app/groups.js';
import './app/expenses.js';
import './app/recurring.js';
import './app/rates.js';
import './app/invites.js';
import './app/imports.js';
import './app/activity.js';
import './app/webhooks.js';
import './app/notifications.js';
import './app/receipts.js';
import './app/categories.js';
