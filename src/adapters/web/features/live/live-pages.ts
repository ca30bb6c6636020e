import { TooManyAttemptsError } from '../../../../core/shared/errors.ts';
import { missingFor } from '../../../../core/workspaces/policy.ts';
import { viewerOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';

/** The path of the signed-in account's live clicks (live.js opens it). */
const LIVE_PATH = '/account/live';

/**
 * GET /account/live: the signed-in account's clicks as Server-Sent Events, for the pages that
 * show live totals (docs/design/statistics.md). Only the session's own account is heard; other accounts'
 * clicks never reach the stream, and the stream ends with the session or the server.
 */
export const livePages: WebFeature = (web, ctx: WebContext) => {
  const streams = ctx.web.live;
  if (streams === undefined) return;
  // Before the server waits for the requests in flight: an open stream is one, and would hold the stop.
  web.addHook('preClose', (done) => {
    streams.closeAll();
    done();
  });

  web.get(LIVE_PATH, async (request, reply) => {
    const { account, workspace, token } = viewerOf(request);
    // The stream lasts while the session does and its person may still read the workspace's statistics.
    const signedIn = async () => {
      if ((await ctx.signIn.resolve(token))?.account.id !== account.id) return false;
      const standing = await ctx.workspaces.standingOf(workspace.id, account.id);
      return (
        standing !== null &&
        missingFor({ role: standing.role, scopes: null, twoFactorMissing: standing.twoFactorMissing }, 'stats.read') ===
          null
      );
    };
    const stream = streams.open({ workspaceId: workspace.id, personId: account.id }, signedIn);
    if (stream === null) throw new TooManyAttemptsError(5);
    // The browser went away: the stream and its subscription go too.
    reply.raw.once('close', () => stream.destroy());
    return (
      reply
        .code(200)
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        // nginx would otherwise buffer the events (deploy/nginx-proxy.conf).
        .header('x-accel-buffering', 'no')
        .send(stream)
    );
  });
};
