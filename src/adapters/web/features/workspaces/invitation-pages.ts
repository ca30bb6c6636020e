import { Type, type Static } from '@sinclair/typebox';
import { html } from '../../../shared/html/html.ts';
import { appLayout } from '../../ui/layout.ts';
import { csrfField } from '../../ui/components.ts';
import { seeOther, sendView } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import { chooseWorkspace } from '../../app/workspace-choice.ts';
import { normaliseEmail } from '../../../../core/accounts/email.ts';
import type { WebFeature } from '../feature.ts';
import { actorOf } from './workspace-actor.ts';

const TokenParams = Type.Object({ token: Type.String({ maxLength: 64 }) });
type TokenParams = Static<typeof TokenParams>;

/**
 * /signup/invitation/{token}: what the invitation offers, to anyone holding the link; signed out,
 * the ways to sign in or sign up (both come back here); signed in as the invited address, Join;
 * as another, says so. Unknown: 404; used, revoked or expired: 410.
 */
export const invitationPages: WebFeature = (web, ctx: WebContext) => {
  const secret = ctx.web.csrfSecret;

  web.get(
    '/signup/invitation/:token',
    { config: { access: 'public' }, schema: { params: TokenParams } },
    async (request, reply) => {
      const { token } = request.params as TokenParams;
      const { invitation, workspace } = await ctx.invitations.describe(token);
      const view = viewOf(request, reply, secret);
      const t = view.t.workspaces.invitation;
      const here = `/signup/invitation/${token}`;
      const person = request.viewer?.account ?? null;
      const body = !person
        ? html`<p>${t.signedOut}</p>
<div class="actions"><a class="button" href="/login?next=${encodeURIComponent(here)}">${t.signIn}</a>
${ctx.web.signup === 'open' ? html`<a class="button secondary" href="/signup?next=${encodeURIComponent(here)}">${t.signUp}</a>` : ''}</div>`
        : normaliseEmail(person.email) === invitation.email
          ? html`<form method="post" action="${here}" class="stack">${csrfField(view)}<div class="actions"><button type="submit">${t.join}</button></div></form>`
          : html`<p class="field-error">${t.wrongEmail(person.email)}</p>`;
      const main = html`<h1>${t.title}</h1>
<p>${t.intro(workspace.name, view.t.workspaces.roles[invitation.role] ?? invitation.role)}</p>
<p class="muted">${t.sentTo(invitation.email)}</p>
${body}`;
      return sendView(reply, 200, appLayout(view, { title: t.title, main, narrow: true }));
    },
  );

  web.post('/signup/invitation/:token', { schema: { params: TokenParams } }, async (request, reply) => {
    const { token } = request.params as TokenParams;
    const { workspace } = await ctx.invitations.describe(token);
    const joined = await ctx.invitations.accept(actorOf(request), token);
    chooseWorkspace(request, reply, secret, viewerOf(request).token, joined.workspaceId);
    setFlash(reply, viewOf(request, reply, secret).t.workspaces.invitation.joined(workspace.name));
    return seeOther(reply, '/dashboard');
  });
};
