import type { FastifyInstance } from 'fastify';
import type { DomainRoot } from '../features/home/home-page.ts';
import { sendErrorPage } from './error-pages.ts';

/**
 * A start during a database outage, served from the redirect snapshot (docs/design/snapshot.md):
 * every page answers 503, the signed-out ones too. Their forms could not be sent (each needs the
 * database), and their tokens would be under a throwaway secret, refused once the instance has
 * started again whole. A custom domain's root is the redirect's, answered from the snapshot.
 */
export function installOutagePages(web: FastifyInstance, csrfSecret: string, domainRoot?: DomainRoot): void {
  web.addHook('onRequest', async (request, reply) => {
    if (domainRoot && request.routeOptions.url === '/' && (await domainRoot(request, reply))) return reply;
    return sendErrorPage(request, reply, 'unavailable', csrfSecret);
  });
}
