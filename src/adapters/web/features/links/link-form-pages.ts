import type { FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../../../../core/shared/errors.ts';
import type { LinkInput } from '../../../../core/links/link-input.ts';
import { LinkBody } from '../../../shared/schemas/link.ts';
import { IdParams } from '../../../shared/schemas/common.ts';
import { normalizeBody } from '../../../shared/input/normalize-input.ts';
import { inputFaults } from '../../../shared/input/strict-input.ts';
import { refuseInvalidBody } from '../../../shared/input/refuse-invalid-body.ts';
import { seeOther } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { existingOf, renderLinkForm, type Existing, type Page } from './link-form-render.ts';
import { linkCardImagePages } from './link-card-image-pages.ts';
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
import { linkHealthPages } from './link-health-pages.ts';
import { linkQrPages } from './link-qr-pages.ts';
import { linkRulesPages } from './link-rules-pages.ts';
import { linkHistoryPages, linkSchedulePages } from './link-history-pages.ts';
import { linkConversionsPages } from './link-conversions-pages.ts';
import { linkPreviewPages } from './link-preview-pages.ts';
import { refuseBadParams } from './link-params.ts';
import { applyUtmTemplate, composePostedUtm, refuseUtmFaults, type PostedUtm } from '../utm/utm-builder-state.ts';
import { webActor } from '../../app/audit-actor.ts';
import { formRoute } from '../../app/form-route.ts';

/** The form as typed, kept before the body becomes the API's link body (and Ajv coerces it). */
interface Posted {
  values: LinkFormValues;
  action: RowAction | null;
  secrets: TypedSecrets;
  /** The UTM builder as posted; null when the form had none. */
  utm: PostedUtm | null;
}

const text = (form: Record<string, unknown>, name: string): string =>
  typeof form[name] === 'string' ? form[name] : '';

/**
 * Runs after the web scope's CSRF check, before validation: the schema then judges exactly the
 * body the API would get for this form.
 */
function readLinkForm(mode: 'create' | 'edit') {
  return (request: FastifyRequest): Posted => {
    const raw = request.body;
    const form = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const values = valuesOfForm(raw);
    const composed = composePostedUtm(raw, values.url);
    values.url = composed.url;
    const secrets = { password: text(form, 'password'), privacy_password: text(form, 'privacy_password') };
    const body = linkBodyOf(values, mode, secrets);
    // The form is read leniently to show it again; a field of the wrong type (a list where text
    // is expected, an object where a list is) goes to the schema as sent, which names it.
    const sent = normalizeBody(form) as Record<string, unknown>;
    for (const fault of inputFaults(LinkBody, sent)) {
      const field = fault.instancePath.split('/')[1] ?? '';
      if (Object.hasOwn(LinkBody.properties, field)) body[field] = sent[field];
    }
    request.body = body;
    return { values, action: rowActionOf(raw), secrets, utm: composed.utm };
  };
}

/** A form page to show with its status, and the UTM builder as the page shows it. */
interface Unsaved {
  status: number;
  page: Page;
  utm: PostedUtm | null;
}

/**
 * The page for a post that saves nothing: "Apply template" (the destination with the template's
 * parameters, or the picker's fault) or a row button (a row added or removed). Null for a save.
 * The page, not the reply: a reply is a thenable, which an async function's caller would await.
 */
async function unsavedPage(
  request: FastifyRequest,
  ctx: WebContext,
  posted: Posted,
  existing?: Existing,
): Promise<Unsaved | null> {
  const { values, action, secrets } = posted;
  const accountId = viewerOf(request).workspace.id;
  const applied = await applyUtmTemplate(posted.utm, ctx.utmTemplates, accountId, values.url);
  if (applied) {
    const { url, errors } = applied;
    const page = { values: { ...values, url }, secrets, existing, errors, rowsChanged: !errors, open: ['tags'] };
    return { status: errors ? 422 : 200, page, utm: applied.utm };
  }
  if (action) {
    const page = { values: applyRowAction(values, action), secrets, existing, rowsChanged: true, open: ['targeting'] };
    return { status: 200, page, utm: posted.utm };
  }
  return null;
}

async function showNewLink(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  return renderLinkForm(request, reply, ctx, 200, { values: emptyValues(ctx.links.defaultPrivacy) });
}

async function createLink(request: FastifyRequest, reply: FastifyReply, ctx: WebContext, posted: Posted) {
  const { workspace: account } = viewerOf(request);
  const unsaved = await unsavedPage(request, ctx, posted);
  if (unsaved) return renderLinkForm(request, reply, ctx, unsaved.status, unsaved.page, unsaved.utm);
  try {
    await refuseInvalidBody<LinkInput>(request, (rest) => ctx.links.faultsOf(account.id, account.timezone, rest));
    await refuseUtmFaults(posted.utm, () =>
      ctx.links.faultsOf(account.id, account.timezone, request.body as LinkInput),
    );
    const made = await ctx.links.create(account.id, account.timezone, request.body as LinkInput, webActor(request));
    setFlash(reply, viewOf(request, reply, ctx.web.csrfSecret).t.linkForm.created);
    return seeOther(reply, `/links/${made.link.id}/edit`);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return renderLinkForm(request, reply, ctx, 422, { values: posted.values, errors: error.fields }, posted.utm);
  }
}

async function showEditLink(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { workspace: account } = viewerOf(request);
  const link = await ctx.links.get(account.id, (request.params as IdParams).id);
  const page = { values: valuesOfLink(link, account.timezone), existing: existingOf(ctx, link) };
  return renderLinkForm(request, reply, ctx, 200, page);
}

async function saveLink(request: FastifyRequest, reply: FastifyReply, ctx: WebContext, posted: Posted) {
  refuseBadParams(request);
  const { workspace: account } = viewerOf(request);
  const id = (request.params as IdParams).id;
  const existing = existingOf(ctx, await ctx.links.get(account.id, id));
  const unsaved = await unsavedPage(request, ctx, posted, existing);
  if (unsaved) return renderLinkForm(request, reply, ctx, unsaved.status, unsaved.page, unsaved.utm);
  try {
    await refuseInvalidBody<LinkInput>(request, (rest) => ctx.links.faultsOf(account.id, account.timezone, rest, id), [
      'domain',
    ]);
    await refuseUtmFaults(posted.utm, () =>
      ctx.links.faultsOf(account.id, account.timezone, request.body as LinkInput, id),
    );
    await ctx.links.update(account.id, account.timezone, id, request.body as LinkInput, webActor(request));
    setFlash(reply, viewOf(request, reply, ctx.web.csrfSecret).t.linkForm.saved);
    return seeOther(reply, '/links');
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const page = { values: posted.values, errors: error.fields, existing };
    return renderLinkForm(request, reply, ctx, 422, page, posted.utm);
  }
}

/** The link form, new and edit, and the link's other screens. */
export const linkFormPages: WebFeature = (web, ctx: WebContext) => {
  const create = formRoute(readLinkForm('create'), (request, reply, posted) => createLink(request, reply, ctx, posted));
  const save = formRoute(readLinkForm('edit'), (request, reply, posted) => saveLink(request, reply, ctx, posted));
  const editSchema = { params: IdParams, body: LinkBody };

  web.get('/links/new', (request, reply) => showNewLink(request, reply, ctx));
  web.post(
    '/links/new',
    { attachValidation: true, schema: { body: LinkBody }, preValidation: create.preValidation },
    create.handler,
  );
  web.get('/links/:id/edit', { schema: { params: IdParams } }, (request, reply) => showEditLink(request, reply, ctx));
  web.post(
    '/links/:id/edit',
    { attachValidation: true, schema: editSchema, preValidation: save.preValidation },
    save.handler,
  );

  linkPreviewPages(web, ctx);
  linkDeletePages(web, ctx);
  linkHealthPages(web, ctx);
  linkQrPages(web, ctx);
  linkCardImagePages(web, ctx);
  linkRulesPages(web, ctx);
  linkConversionsPages(web, ctx);
  linkHistoryPages(web, ctx);
  linkSchedulePages(web, ctx);
};
