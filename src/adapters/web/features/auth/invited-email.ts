import { GoneError, NotFoundError } from '../../../../core/shared/errors.ts';
import type { WebContext } from '../../app/web-context.ts';
import { safeNext } from '../../app/respond.ts';

const INVITATION_PAGE = /^\/signup\/invitation\/([A-Za-z0-9_-]{43})$/;

/**
 * The address an open invitation was sent to, when a sign-up comes from its page (the invitation
 * page links to `/signup?next=/signup/invitation/{token}`). The form shows it locked and the
 * account is made with it whatever was posted: an account under another address could not join.
 * An unknown, used, revoked or expired invitation gives null (the form is the ordinary one).
 */
export async function invitedEmail(ctx: WebContext, next: unknown): Promise<string | null> {
  if (typeof next !== 'string') return null;
  const token = INVITATION_PAGE.exec(safeNext(next))?.[1];
  if (token === undefined) return null;
  try {
    return (await ctx.invitations.describe(token)).invitation.email;
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof GoneError) return null;
    throw error;
  }
}
