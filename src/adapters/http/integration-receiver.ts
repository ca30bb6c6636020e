import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { digest } from '../../core/shared/secrets.ts';
import type { IntegrationsService } from '../../core/integrations/integrations-service.ts';
import type { RateLimitSettings } from '../shared/request/rate-limit-settings.ts';
import { installRateLimit } from './rate-limit.ts';

/** Stripe's events stay far below it (a Checkout Session with its line items is a few KiB); Shopify's orders too. */
const RECEIVER_BODY_LIMIT = 512 * 1024;

const Params = Type.Object({ token: Type.String({ minLength: 1, maxLength: 128 }) });
type ReceiverRequest = FastifyRequest<{ Params: { token: string } }>;

const REFUSED = { message: 'The signature is missing or does not match.', status: 400 } as const;

/**
 * POST /api/integrations/{token} (docs/api.md, Integrations): a sender's events, outside key auth
 * and the OpenAPI document. Its scope takes every body as the bytes that came, unparsed: the
 * signature is over them. Counted per token, with the API's limit: a sender's posts are its own
 * budget; a guessed token costs one indexed lookup, as a visit does.
 */
export async function registerIntegrationReceiver(
  parent: FastifyInstance,
  ctx: { integrations: IntegrationsService },
  rateLimit: RateLimitSettings,
): Promise<void> {
  await parent.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    await installRateLimit(scope, rateLimit, (request) => {
      const { token } = (request.params ?? {}) as { token?: string };
      return `integration:${digest(token ?? '')}`;
    });
    scope.post(
      '/api/integrations/:token',
      { bodyLimit: RECEIVER_BODY_LIMIT, schema: { hide: true, params: Params } },
      async (request: ReceiverRequest, reply: FastifyReply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const receipt = await ctx.integrations.receive(request.params.token, {
          raw,
          header: (name) => {
            const value = request.headers[name];
            return Array.isArray(value) ? value[0] : value;
          },
        });
        if (receipt === 'refused') return reply.code(400).send(REFUSED);
        return { received: true, result: receipt, status: 200 };
      },
    );
  });
}
