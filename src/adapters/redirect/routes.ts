import type { FastifyInstance } from 'fastify';
import { redirectHandlers } from './handlers.ts';
import { registerAppSiteFiles } from './app-site-files.ts';
import type { RedirectContext } from './visit-context.ts';

/**
 * The visitor routes, registered at the root after every app route: Fastify matches static
 * paths (/api/…, /docs, /health) before these parametric ones.
 */
export function registerRedirectRoutes(app: FastifyInstance, ctx: RedirectContext, options: { root: boolean }): void {
  const h = redirectHandlers(ctx);
  // Visitors' routes: no request id or log line per request (request-id.ts, request-log.ts).
  const hidden = { schema: { hide: true }, config: { visitor: true } };
  // With the web app, `/` is its landing page, which hands a custom domain's root back here.
  if (options.root) app.get('/', hidden, h.root);
  registerAppSiteFiles(app, ctx);
  app.get('/:alias', hidden, h.visit);
  app.post('/:alias', hidden, h.submit);
  app.get('/:alias/+', hidden, h.preview);
  app.post('/:alias/+', hidden, h.preview);
}
