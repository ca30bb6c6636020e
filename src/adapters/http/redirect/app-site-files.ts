import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RedirectDomain } from '../../../core/redirect/redirect-link.ts';
import { createNonce } from '../../web/pages/csp.ts';
import { renderNotFound } from '../../web/pages/not-found.ts';
import { hostnameOf } from '../../shared/request/client-address.ts';
import { sendPage } from './respond.ts';
import type { RedirectContext } from './visit-context.ts';

/**
 * A custom domain's app-link files (docs/adr/0067), on its own host: Apple and Google fetch them
 * from there to let an app open the domain's links. Another host, or a domain without the file,
 * answers the not-found page as any unknown path does.
 */
export function registerAppSiteFiles(app: FastifyInstance, ctx: RedirectContext): void {
  const hidden = { schema: { hide: true }, config: { visitor: true } };
  const serve =
    (pick: (d: RedirectDomain) => string | null) => async (request: FastifyRequest, reply: FastifyReply) => {
      const host = hostnameOf(request.host);
      const domain = ctx.options.appHosts.has(host) ? null : await ctx.source.domain(host);
      const body = domain === null ? null : pick(domain);
      if (body === null) return sendPage(reply, 404, renderNotFound({ nonce: createNonce() }));
      // Short-lived: the owner's edit reaches the platforms' crawlers soon, and the file is small.
      return reply
        .code(200)
        .header('content-type', 'application/json')
        .header('cache-control', 'public, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .send(body);
    };
  app.get(
    '/.well-known/apple-app-site-association',
    hidden,
    serve((d) => d.appleAppSiteAssociation),
  );
  app.get(
    '/.well-known/assetlinks.json',
    hidden,
    serve((d) => d.assetLinks),
  );
}
