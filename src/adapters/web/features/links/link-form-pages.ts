import type { FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../../../../core/shared/errors.ts';
import type { LinkInput } from '../../../../core/links/link-input.ts';
import type { LinkView } from '../../../../core/links/link.ts';
import { LinkBody } from '../../../shared/schemas/link.ts';
import { IdParams } from '../../../shared/schemas/common.ts';
import { normalizeBody } from '../../../shared/input/normalize-input.ts';
import { inputFaults } from '../../../shared/input/strict-input.ts';
import { refuseInvalidBody } from '../../../shared/input/refuse-invalid-body.ts';
import { shortUrl } from '../../../shared/presenters/link-record.ts';
import { appLayout } from '../../ui/layout.ts';
import { seeOther, sendView } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { linkChoices } from './link-choices.ts';
import { linkForm, type LinkFormPage } from './link-form-view.ts';
import {
  applyRowAction,
  emptyValues,
  linkBodyOf,
  rowActionOf,
  valuesOfForm,
  valuesOfLink,
  type LinkFormValues,
  type RowAction,
  type TypedSecrets,
} from './link-form-state.ts';
import { linkDeletePages } from './link-delete-pages.ts';
import { linkQrPages } from './link-qr-pages.ts';
import { linkRulesPages } from './link-rules-pages.ts';
import { linkConversionsPages } from './link-conversions-pages.ts';
import { linkPreviewPages, previewCardFor } from './link-preview-pages.ts';
import { refuseBadParams } from './link-params.ts';
import { applyUtmTemplate, composePostedUtm, refuseUtmFaults, utmBuilderState } from '../utm/utm-builder-state.ts';
import { webActor } from '../../app/audit-actor.ts';

interface Posted {
  values: LinkFormValues;
  action: RowAction | null;
  secrets: TypedSecrets;
}

/** The form as typed, kept aside before the body becomes the API's link body (and Ajv coerces it). */
const postedForms = new WeakMap<FastifyRequest, Posted>();

const text = (form: Record<string, unknown>, name: string): string =>
  typeof form[name] === 'string' ? form[name] : '';

/**
 * Runs after the web scope's CSRF check, before validation: the schema then judges exactly the
 * body the API would get for this form.
 */
function readLinkForm(mode: 'create' | 'edit') {
  return async (request: FastifyRequest) => {
    const raw = request.body;
    const form = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const values = valuesOfForm(raw);
    values.url = composePostedUtm(request, raw, values.url);
    const secrets = { password: text(form, 'password'), privacy_password: text(form, 'privacy_password') };
    postedForms.set(request, { values, action: rowActionOf(raw), secrets });
    const body = linkBodyOf(values, mode, secrets);
    // The form is read leniently to show it again; a field of the wrong type (a list where text
    // is expected, an object where a list is) goes to the schema as sent, which names it.
    const sent = normalizeBody(form) as Record<string, unknown>;
    for (const fault of inputFaults(LinkBody, sent)) {
      const field = fault.instancePath.split('/')[1] ?? '';
      if (Object.hasOwn(LinkBody.properties, field)) body[field] = sent[field];
    }
    request.body = body;
  };
}

function postedOf(request: FastifyRequest, defaultPrivacy: number): Posted {
  return (
    postedForms.get(request) ?? {
      values: emptyValues(defaultPrivacy),
      action: null,
      secrets: { password: '', privacy_password: '' },
    }
  );
}

export const linkFormPages: WebFeature = (web, ctx: WebContext) => {
  const secret = ctx.web.csrfSecret;

  const render = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    page: Omit<LinkFormPage, 'choices' | 'preview'>,
  ) => {
    const view = viewOf(request, reply, secret);
    // A form posted without a privacy left it as it was: the link's, or a new link's default.
    if (page.values.privacy === '')
      page = {
        ...page,
        values: { ...page.values, privacy: String(page.existing?.view.link.privacy ?? ctx.links.defaultPrivacy) },
      };
    const choices = await linkChoices(ctx, viewerOf(request).workspace.id);
    const preview = await previewCardFor(ctx, request, page.values, page.existing?.view);
    const utm = await utmBuilderState(request, ctx.utmTemplates, viewerOf(request).workspace.id, page.values.url);
    const title = page.existing ? view.t.linkForm.editTitle : view.t.linkForm.newTitle;
    return sendView(
      reply,
      status,
      appLayout(view, { title, section: '/links', main: linkForm(view, { ...page, choices, preview, utm }) }),
    );
  };
  const existingOf = (view: LinkView) => ({ view, shortUrl: shortUrl(view, ctx.urls) });

  web.get('/links/new', async (request, reply) =>
    render(request, reply, 200, { values: emptyValues(ctx.links.defaultPrivacy) }),
  );

  web.post(
    '/links/new',
    { attachValidation: true, schema: { body: LinkBody }, preValidation: readLinkForm('create') },
    async (request, reply) => {
      const { workspace: account } = viewerOf(request);
      const { values, action, secrets } = postedOf(request, ctx.links.defaultPrivacy);
      const applied = await applyUtmTemplate(request, ctx.utmTemplates, account.id, values.url);
      if (applied)
        return render(request, reply, applied.errors ? 422 : 200, {
          values: { ...values, url: applied.url },
          secrets,
          errors: applied.errors,
          rowsChanged: !applied.errors,
        });
      if (action)
        return render(request, reply, 200, { values: applyRowAction(values, action), secrets, rowsChanged: true });
      try {
        await refuseInvalidBody<LinkInput>(request, (rest) => ctx.links.faultsOf(account.id, account.timezone, rest));
        await refuseUtmFaults(request, () =>
          ctx.links.faultsOf(account.id, account.timezone, request.body as LinkInput),
        );
        const made = await ctx.links.create(account.id, account.timezone, request.body as LinkInput, webActor(request));
        setFlash(reply, viewOf(request, reply, secret).t.linkForm.created);
        return seeOther(reply, `/links/${made.link.id}/edit`);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        return render(request, reply, 422, { values, errors: error.fields });
      }
    },
  );

  web.get('/links/:id/edit', { schema: { params: IdParams } }, async (request, reply) => {
    const { workspace: account } = viewerOf(request);
    const link = await ctx.links.get(account.id, (request.params as IdParams).id);
    return render(request, reply, 200, { values: valuesOfLink(link, account.timezone), existing: existingOf(link) });
  });

  web.post(
    '/links/:id/edit',
    { attachValidation: true, schema: { params: IdParams, body: LinkBody }, preValidation: readLinkForm('edit') },
    async (request, reply) => {
      refuseBadParams(request);
      const { workspace: account } = viewerOf(request);
      const id = (request.params as IdParams).id;
      const link = await ctx.links.get(account.id, id);
      const { values, action, secrets } = postedOf(request, ctx.links.defaultPrivacy);
      const existing = existingOf(link);
      const applied = await applyUtmTemplate(request, ctx.utmTemplates, account.id, values.url);
      if (applied)
        return render(request, reply, applied.errors ? 422 : 200, {
          values: { ...values, url: applied.url },
          secrets,
          existing,
          errors: applied.errors,
          rowsChanged: !applied.errors,
        });
      if (action)
        return render(request, reply, 200, {
          values: applyRowAction(values, action),
          secrets,
          existing,
          rowsChanged: true,
        });
      try {
        await refuseInvalidBody<LinkInput>(
          request,
          (rest) => ctx.links.faultsOf(account.id, account.timezone, rest, id),
          ['domain'],
        );
        await refuseUtmFaults(request, () =>
          ctx.links.faultsOf(account.id, account.timezone, request.body as LinkInput, id),
        );
        await ctx.links.update(account.id, account.timezone, id, request.body as LinkInput, webActor(request));
        setFlash(reply, viewOf(request, reply, secret).t.linkForm.saved);
        return seeOther(reply, '/links');
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        return render(request, reply, 422, { values, errors: error.fields, existing });
      }
    },
  );

  linkPreviewPages(web, ctx);
  linkDeletePages(web, ctx);
  linkQrPages(web, ctx);
  linkRulesPages(web, ctx);
  linkConversionsPages(web, ctx);
};
