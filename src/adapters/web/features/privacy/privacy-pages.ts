import type { FastifyReply, FastifyRequest } from 'fastify';
import { appLayout } from '../../ui/layout.ts';
import { sendView } from '../../app/respond.ts';
import { viewOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { privacyPage } from './privacy-views.ts';

/** Anyone's, signed in or not: what a visit leaves behind, from the report. */
function showPrivacy(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  const main = privacyPage(view, ctx.privacy.notice());
  return sendView(reply, 200, appLayout(view, { title: view.t.privacy.title, section: '/privacy', main }));
}

/** The public privacy page (/privacy); the operator's inventory is /admin/data (admin feature). */
export const privacyPages: WebFeature = (web, ctx: WebContext) => {
  web.get('/privacy', { config: { access: 'public' } }, (request, reply) => showPrivacy(request, reply, ctx));
};
