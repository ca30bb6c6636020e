import { IdParams } from '../../../shared/schemas/common.ts';
import { shortUrl } from '../../../shared/presenters/link-record.ts';
import { html } from '../../../shared/html/html.ts';
import { appLayout } from '../../ui/layout.ts';
import { csrfField } from '../../ui/components.ts';
import { seeOther, sendView } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf } from '../../app/view.ts';
import type { WebFeature } from '../feature.ts';
import { webActor } from '../../app/audit-actor.ts';

/** GET asks (a page that changes nothing), POST deletes. */
export const linkDeletePages: WebFeature = (web, ctx) => {
  const secret = ctx.web.csrfSecret;

  web.get('/links/:id/delete', { schema: { params: IdParams } }, async (request, reply) => {
    const { workspace: account } = viewerOf(request);
    const link = await ctx.links.get(account.id, (request.params as IdParams).id);
    const view = viewOf(request, reply, secret);
    const t = view.t.linkForm.remove;
    const url = shortUrl(link, ctx.urls);
    const main = html`<h1>${t.title}</h1>
<dl class="link-facts">
${link.link.title ? html`<dt>${view.t.linkForm.destination.title}</dt><dd>${link.link.title}</dd>` : ''}
<dt>${view.t.linkForm.shortUrl}</dt><dd class="url">${url}</dd>
<dt>${view.t.linkForm.destination.url}</dt><dd class="url">${link.link.url}</dd>
</dl>
<p>${t.question}</p>
<form method="post" action="/links/${link.link.id}/delete" class="actions">
${csrfField(view)}
<button type="submit" class="danger">${t.confirm}</button>
<a href="/links/${link.link.id}/edit">${view.t.common.cancel}</a>
</form>`;
    return sendView(reply, 200, appLayout(view, { title: t.title, section: '/links', main }));
  });

  web.post('/links/:id/delete', { schema: { params: IdParams } }, async (request, reply) => {
    const { workspace: account } = viewerOf(request);
    const id = (request.params as IdParams).id;
    const link = await ctx.links.get(account.id, id);
    await ctx.links.delete(account.id, id, webActor(request));
    setFlash(reply, viewOf(request, reply, secret).t.linkForm.remove.deleted(shortUrl(link, ctx.urls)));
    return seeOther(reply, '/links');
  });
};
