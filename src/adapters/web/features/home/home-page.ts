import type { FastifyReply, FastifyRequest } from 'fastify';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { appLayout } from '../../ui/layout.ts';
import { seeOther, sendView } from '../../app/respond.ts';
import { viewOf, type View } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';

/** A custom domain's root (its index page or 404); false when the host is not a custom domain. */
export type DomainRoot = (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;

function landing(view: View, signupOpen: boolean): RawHtml {
  const h = view.t.home;
  return html`<section class="home-hero">
<h1>${h.title}</h1>
<p class="home-lead">${h.lead}</p>
<p class="home-actions"><a class="button" href="/login">${h.signIn}</a>${signupOpen ? html` <a class="button secondary" href="/signup">${h.signUp}</a>` : ''}</p>
</section>
<section aria-labelledby="home-features">
<h2 id="home-features">${h.featuresTitle}</h2>
<ul class="home-features">${h.features.map((f) => html`<li><h3>${f.name}</h3><p>${f.text}</p></li>`)}</ul>
<p><a href="/docs">${h.apiDocs}</a></p>
</section>`;
}

/**
 * `/` on the app's host: the dashboard for a signed-in account, else what linkpix is and the way
 * in. A custom domain's root stays the redirect's (its index page), handed back before anything.
 */
export function homePage(domainRoot: DomainRoot | undefined): WebFeature {
  return (web, ctx: WebContext) => {
    web.get('/', { config: { access: 'public' } }, async (request, reply) => {
      if (domainRoot && (await domainRoot(request, reply))) return reply;
      if (request.viewer) return seeOther(reply, '/dashboard');
      const view = viewOf(request, reply, ctx.web.csrfSecret);
      return sendView(
        reply,
        200,
        appLayout(view, { title: view.t.home.title, section: '/', main: landing(view, ctx.web.signup === 'open') }),
      );
    });
  };
}
