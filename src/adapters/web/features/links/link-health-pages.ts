import { TooManyAttemptsError } from '../../../../core/shared/errors.ts';
import { IdParams } from '../../../shared/schemas/common.ts';
import { seeOther } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf } from '../../app/view.ts';
import type { WebFeature } from '../feature.ts';

/**
 * *Check now* on the link's page: the destination checked at once, counted against the person's
 * limit (docs/design/health.md), then back to the page with what it found. The limit reached is
 * said there too: the page is where the person is, and nothing was lost.
 */
export const linkHealthPages: WebFeature = (web, ctx) => {
  const secret = ctx.web.csrfSecret;

  web.post('/links/:id/check', { schema: { params: IdParams } }, async function checkNow(request, reply) {
    const { workspace, account } = viewerOf(request);
    const id = (request.params as IdParams).id;
    const { link } = await ctx.links.get(workspace.id, id);
    const t = viewOf(request, reply, secret).t.linkForm.health;
    try {
      const health = await ctx.health.checkNow(workspace.id, link, `user:${account.id}`);
      setFlash(reply, t.checked(t.statuses[health.status]));
    } catch (error) {
      if (!(error instanceof TooManyAttemptsError)) throw error;
      reply.header('retry-after', String(error.retryAfterSeconds));
      setFlash(reply, t.tooMany(error.retryAfterSeconds));
    }
    return seeOther(reply, `/links/${id}/edit`);
  });
};
