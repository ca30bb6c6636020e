import type { FastifyInstance } from 'fastify';
import type { WebhooksService } from '../../core/webhooks/webhooks-service.ts';

/**
 * Tells an account, on its next API answer, which of its webhooks were disabled for failing
 * a day (once each). After requireApiKey: only authenticated requests ask.
 */
export function noticeDisabledWebhooks(scope: FastifyInstance, webhooks: WebhooksService): void {
  scope.addHook('onRequest', async (request, reply) => {
    const ids = await webhooks.takeDisabledNotice(request.account.id);
    if (ids.length > 0) void reply.header('linkpix-webhooks-disabled', ids.join(','));
  });
}
