import type { FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../../../../core/shared/errors.ts';
import type { TagsService } from '../../../../core/tags/tags-service.ts';
import { IdParams } from '../../../shared/schemas/common.ts';
import { appLayout } from '../../ui/layout.ts';
import { keepPostedForm, textOf, type PostedForm } from '../../ui/posted-form.ts';
import { formRoute } from '../../app/form-route.ts';
import { seeOther, sendView } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf, type View } from '../../app/view.ts';
import type { RawHtml } from '../../../shared/html/html.ts';
import type { WebFeature } from '../feature.ts';
import { tagDeleteMain, tagFormMain, tagsMain } from './tags-view.ts';
import { webActor } from '../../app/audit-actor.ts';

/** The tag with its link count, or the service's 404 when it is not the account's. */
async function counted(tags: TagsService, accountId: number, id: number) {
  const tag = await tags.get(accountId, id);
  const links = (await tags.list(accountId)).find((t) => t.id === id)?.links ?? 0;
  return { ...tag, links };
}

/** /links/tags: the account's tags, renamed, recoloured and deleted through the API's rules (TagsService). */
export const tagsPages: WebFeature = (web, ctx) => {
  const secret = ctx.web.csrfSecret;
  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    title: (view: View) => string,
    main: (view: View) => RawHtml,
  ) => {
    const view = viewOf(request, reply, secret);
    return sendView(reply, status, appLayout(view, { title: title(view), section: '/links', main: main(view) }));
  };
  const byId = { schema: { params: IdParams } };
  const idOf = (request: FastifyRequest) => (request.params as IdParams).id;

  web.get('/links/tags', async (request, reply) => {
    const tags = await ctx.tags.list(viewerOf(request).workspace.id);
    return send(
      request,
      reply,
      200,
      (view) => view.t.tags.title,
      (view) => tagsMain(view, tags),
    );
  });

  web.get('/links/tags/:id/edit', byId, async (request, reply) => {
    const tag = await ctx.tags.get(viewerOf(request).workspace.id, idOf(request));
    return send(
      request,
      reply,
      200,
      (view) => view.t.tags.editTitle(tag.name),
      (view) => tagFormMain(view, tag, { name: tag.name, color: tag.color }),
    );
  });

  const edit = formRoute(keepPostedForm, async (request, reply, form: PostedForm) => {
    const accountId = viewerOf(request).workspace.id;
    const tag = await ctx.tags.get(accountId, idOf(request));
    const values = { name: textOf(form, 'name'), color: textOf(form, 'color') };
    try {
      const saved = await ctx.tags.update(accountId, tag.id, values, webActor(request));
      setFlash(reply, viewOf(request, reply, secret).t.tags.updated(saved.name));
      return seeOther(reply, '/links/tags');
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return send(
        request,
        reply,
        422,
        (view) => view.t.tags.editTitle(tag.name),
        (view) => tagFormMain(view, tag, values, error.fields),
      );
    }
  });
  web.post('/links/tags/:id/edit', { ...byId, preValidation: edit.preValidation }, edit.handler);

  web.get('/links/tags/:id/delete', byId, async (request, reply) => {
    const tag = await counted(ctx.tags, viewerOf(request).workspace.id, idOf(request));
    return send(
      request,
      reply,
      200,
      (view) => view.t.tags.deleteTitle(tag.name),
      (view) => tagDeleteMain(view, tag),
    );
  });

  web.post('/links/tags/:id/delete', byId, async (request, reply) => {
    const accountId = viewerOf(request).workspace.id;
    const tag = await ctx.tags.get(accountId, idOf(request));
    await ctx.tags.delete(accountId, tag.id, webActor(request));
    setFlash(reply, viewOf(request, reply, secret).t.tags.deleted(tag.name));
    return seeOther(reply, '/links/tags');
  });
};
