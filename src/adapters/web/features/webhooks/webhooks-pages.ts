import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError, type FieldErrors } from '../../../../core/shared/errors.ts';
import type { Webhook } from '../../../../core/webhooks/webhook.ts';
import { IdParams } from '../../../shared/schemas/common.ts';
import { appLayout } from '../../ui/layout.ts';
import { keepPostedForm, listOf, textOf, type PostedForm } from '../../ui/posted-form.ts';
import { formRoute } from '../../app/form-route.ts';
import { seeOther, sendView } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf, type View } from '../../app/view.ts';
import type { RawHtml } from '../../../shared/html/html.ts';
import type { WebFeature } from '../feature.ts';
import type { WebContext } from '../../app/web-context.ts';
import { webActor } from '../../app/audit-actor.ts';
import {
  webhookCreatedMain,
  webhookDeleteMain,
  webhookFormMain,
  webhooksMain,
  type WebhookFormValues,
} from './webhooks-view.ts';

/** The form as typed; `enabled` is a hidden "false" and, when ticked, a "true" after it. */
const valuesOf = (form: PostedForm): WebhookFormValues => ({
  url: textOf(form, 'url'),
  events: listOf(form, 'events'),
  format: textOf(form, 'format'),
  enabled: listOf(form, 'enabled').includes('true'),
});

const storedValues = (w: Webhook): WebhookFormValues => ({
  url: w.url,
  events: w.events,
  format: w.format,
  enabled: w.disabledAt === null,
});

/** The service names one bad event as `events.N`; the form has one fieldset for them all. */
function foldEvents(fields: FieldErrors): FieldErrors {
  const folded: FieldErrors = {};
  for (const [field, messages] of Object.entries(fields)) {
    const name = field.startsWith('events.') ? 'events' : field;
    folded[name] = [...(folded[name] ?? []), ...messages];
  }
  return folded;
}

type Send = (
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  title: (view: View) => string,
  main: (view: View) => RawHtml,
) => FastifyReply;

/** Every webhooks page in the app's layout, under the Webhooks section. */
function senderOf(secret: string): Send {
  return (request, reply, status, title, main) => {
    const view = viewOf(request, reply, secret);
    return sendView(reply, status, appLayout(view, { title: title(view), section: '/webhooks', main: main(view) }));
  };
}

const byId = { schema: { params: IdParams } };
const idOf = (request: FastifyRequest) => (request.params as IdParams).id;

/** /webhooks: the workspace's webhooks, through the API's rules (WebhooksService); the secret is shown once, on creation. */
export const webhooksPages: WebFeature = (web, ctx) => {
  const send = senderOf(ctx.web.csrfSecret);
  web.get('/webhooks', async (request, reply) => {
    const hooks = await ctx.webhooks.list(viewerOf(request).workspace.id);
    return send(
      request,
      reply,
      200,
      (view) => view.t.webhooks.title,
      (view) => webhooksMain(view, hooks),
    );
  });
  creationPages(web, ctx, send);
  changePages(web, ctx, send);
};

/** /webhooks/new: url, events and format; the answer shows the secret. */
function creationPages(web: FastifyInstance, ctx: WebContext, send: Send): void {
  const target = (view: View) => ({
    action: '/webhooks/new',
    title: view.t.webhooks.newTitle,
    submit: view.t.webhooks.createSubmit,
    editing: false,
  });
  web.get('/webhooks/new', async (request, reply) => {
    const blank = { url: '', events: ['link.created'], format: 'json', enabled: true };
    return send(
      request,
      reply,
      200,
      (view) => view.t.webhooks.newTitle,
      (view) => webhookFormMain(view, target(view), blank),
    );
  });
  const create = formRoute(keepPostedForm, async (request, reply, form: PostedForm) => {
    const values = valuesOf(form);
    try {
      const input = { url: values.url, events: values.events, format: values.format || undefined };
      const made = await ctx.webhooks.create(viewerOf(request).workspace.id, input, webActor(request));
      const main = (view: View) => webhookCreatedMain(view, made.webhook, made.secret);
      return send(request, reply, 201, (view) => view.t.webhooks.createdTitle, main);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const fields = foldEvents(error.fields);
      const main = (view: View) => webhookFormMain(view, target(view), values, fields);
      return send(request, reply, 422, (view) => view.t.webhooks.newTitle, main);
    }
  });
  web.post('/webhooks/new', { preValidation: create.preValidation }, create.handler);
}

/** /webhooks/:id/edit and /delete: any field changed as the API's PATCH does; deleting asks first. */
function changePages(web: FastifyInstance, ctx: WebContext, send: Send): void {
  const secret = ctx.web.csrfSecret;
  const target = (view: View, id: number) => ({
    action: `/webhooks/${id}/edit`,
    title: view.t.webhooks.editTitle,
    submit: view.t.webhooks.save,
    editing: true,
  });
  web.get('/webhooks/:id/edit', byId, async (request, reply) => {
    const hook = await ctx.webhooks.get(viewerOf(request).workspace.id, idOf(request));
    const main = (view: View) => webhookFormMain(view, target(view, hook.id), storedValues(hook));
    return send(request, reply, 200, (view) => view.t.webhooks.editTitle, main);
  });
  const edit = formRoute(keepPostedForm, async (request, reply, form: PostedForm) => {
    const accountId = viewerOf(request).workspace.id;
    const hook = await ctx.webhooks.get(accountId, idOf(request));
    const values = valuesOf(form);
    try {
      await ctx.webhooks.update(accountId, hook.id, values, webActor(request));
      setFlash(reply, viewOf(request, reply, secret).t.webhooks.updated);
      return seeOther(reply, '/webhooks');
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const fields = foldEvents(error.fields);
      const main = (view: View) => webhookFormMain(view, target(view, hook.id), values, fields);
      return send(request, reply, 422, (view) => view.t.webhooks.editTitle, main);
    }
  });
  web.post('/webhooks/:id/edit', { ...byId, preValidation: edit.preValidation }, edit.handler);
  web.get('/webhooks/:id/delete', byId, async (request, reply) => {
    const hook = await ctx.webhooks.get(viewerOf(request).workspace.id, idOf(request));
    return send(
      request,
      reply,
      200,
      (view) => view.t.webhooks.deleteTitle,
      (view) => webhookDeleteMain(view, hook),
    );
  });
  web.post('/webhooks/:id/delete', byId, async (request, reply) => {
    await ctx.webhooks.delete(viewerOf(request).workspace.id, idOf(request), webActor(request));
    setFlash(reply, viewOf(request, reply, secret).t.webhooks.deleted);
    return seeOther(reply, '/webhooks');
  });
}
