import { decodeSeqCursor } from '../http/cursor';
import { created, noContent, ok, type Reply } from '../http/reply';
import { bodyOf, param, queryOf, type Route, type RouteInput, route } from '../http/route';
import type { CreateWebhookInput, PatchWebhookInput, WebhooksService } from './webhooks.service';

/** The group and the endpoint a request names. */
const named = (req: RouteInput) => [param(req, 'groupId'), param(req, 'webhookId')] as const;

/**
 * Webhook endpoints of a group (API.md §12). Group configuration, not a group write: no key, no
 * event (a retried creation makes a second endpoint, listed and deletable like any other).
 */
export function webhookRoutes(deps: { webhooks: WebhooksService }): Route[] {
  const { webhooks } = deps;
  return [
    route('createWebhook', async (req): Promise<Reply> => {
      const groupId = param(req, 'groupId');
      const endpoint = await webhooks.create(req.userId, groupId, bodyOf<CreateWebhookInput>(req));
      return created(endpoint, { Location: `/v1/groups/${groupId}/webhooks/${endpoint.id}` });
    }),
    route('listWebhooks', async (req) => ok(await webhooks.list(req.userId, param(req, 'groupId')))),
    route('getWebhook', async (req) => ok(await webhooks.get(req.userId, ...named(req)))),
    route('patchWebhook', async (req) =>
      ok(await webhooks.patch(req.userId, ...named(req), bodyOf<PatchWebhookInput>(req))),
    ),
    route('deleteWebhook', async (req) => {
      await webhooks.remove(req.userId, ...named(req));
      return noContent();
    }),
    route('rotateWebhookSecret', async (req) => {
      const { previousSecretSeconds } = bodyOf<{ previousSecretSeconds: number }>(req, {});
      return ok(await webhooks.rotateSecret(req.userId, ...named(req), previousSecretSeconds));
    }),
    route('listWebhookDeliveries', async (req) => {
      const query = queryOf<{ limit: number; cursor?: string }>(req);
      const beforeSeq = decodeSeqCursor(query.cursor);
      return ok(await webhooks.deliveries(req.userId, ...named(req), { limit: query.limit, beforeSeq }));
    }),
    route('resendWebhookDelivery', async (req) => ({
      status: 202,
      body: await webhooks.resend(req.userId, ...named(req), param(req, 'deliveryId')),
    })),
  ];
}
