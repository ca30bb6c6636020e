import type { FastifyInstance } from 'fastify';
import type { WebContext } from './web-context.ts';
import { seeOther } from './respond.ts';
import { setFlash, viewOf } from './view.ts';

/** What a person without two-factor may still open in a workspace that requires it: enrolling, and leaving. */
const OPEN_BEFORE_TWO_FACTOR = [/^\/account\/security(\/|$|\?)/, /^\/logout$/, /^\/account\/workspaces(\/|$|\?)/];

/**
 * A workspace with require_2fa sends a member without two-factor to enrol before anything else in
 * it (issue 33). The standing comes from the same policy read as the API's, on every request.
 */
export function installTwoFactorGate(web: FastifyInstance, ctx: WebContext): void {
  web.addHook('preValidation', async (request, reply) => {
    const viewer = request.viewer;
    if (!viewer || (request.routeOptions.config.access ?? 'account') === 'public') return;
    if (OPEN_BEFORE_TWO_FACTOR.some((open) => open.test(request.url))) return;
    // The workspace this request acts in (the header's switcher), not only the person's own.
    const standing = await ctx.workspaces.standingOf(viewer.workspace.id, viewer.account.id);
    if (standing === null || !standing.twoFactorMissing) return;
    setFlash(
      reply,
      viewOf(request, reply, ctx.web.csrfSecret).t.security.twoFactor.required(
        viewer.account.name || viewer.account.email,
      ),
    );
    return seeOther(reply, '/account/security');
  });
}
