import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import qs from 'qs';
import { IdParams } from '../../../shared/schemas/common.ts';
import { MalformedMultipartError, isMalformedMultipart } from '../../../shared/input/malformed-multipart.ts';
import { CARD_IMAGE_MAX_BYTES } from '../../../images/card-image-input.ts';
import { removeCardImage, saveCardImage } from '../../../images/card-image-upload.ts';
import { CSRF_FIELD, csrfTokenMatches } from '../../app/csrf.ts';
import { sendErrorPage } from '../../app/error-pages.ts';
import { csrfBinding, viewOf, viewerOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import { webActor } from '../../app/audit-actor.ts';
import { formRoute } from '../../app/form-route.ts';
import { valuesOfForm, type LinkFormValues } from './link-form-state.ts';
import { existingOf, renderLinkForm } from './link-form-render.ts';

/** The link form as posted multipart: its text fields in order (names as the browser sent them) and the one file. */
interface CardImageForm {
  fields: Array<[string, string]>;
  file: Buffer | null;
  tooLarge: boolean;
}

/** The link form's fields, read back into the shape the urlencoded post has (the app's form parser's options). */
const formOf = (fields: Array<[string, string]>): Record<string, unknown> =>
  qs.parse(new URLSearchParams(fields).toString(), {
    arrayLimit: 300,
    parameterLimit: 2000,
    depth: 4,
    allowPrototypes: false,
  });

/**
 * Reads the whole link form (its fields, to show them again, and the file) before the token is
 * checked, so the token travels in the body as in every other form (never in the URL).
 */
async function readCardImageForm(request: FastifyRequest): Promise<CardImageForm> {
  const form: CardImageForm = { fields: [], file: null, tooLarge: false };
  if (!request.isMultipart()) return form;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.file.truncated) form.tooLarge = true;
        else if (part.fieldname === 'social_card_upload' && bytes.length > 0) form.file = bytes;
      } else if (typeof part.value === 'string') form.fields.push([part.fieldname, part.value]);
    }
  } catch (error) {
    if (isMalformedMultipart(error)) throw new MalformedMultipartError(error);
    if ((error as { code?: unknown } | null)?.code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
    form.tooLarge = true;
  }
  return form;
}

const whoOf = (request: FastifyRequest) => {
  const { workspace } = viewerOf(request);
  return { accountId: workspace.id, timeZone: workspace.timezone, actor: webActor(request) };
};

/** The form as typed, with the card's image as it now stands (an upload's address, or none). */
const withImage = (values: LinkFormValues, image: string | null): LinkFormValues => ({
  ...values,
  social_card: { ...values.social_card, image: image ?? '' },
});

async function uploadCardImage(request: FastifyRequest, reply: FastifyReply, ctx: WebContext, form: CardImageForm) {
  const secret = ctx.web.csrfSecret;
  const posted = Object.fromEntries(form.fields);
  const binding = csrfBinding(request, null);
  if (binding === null || !csrfTokenMatches(secret, binding, posted[CSRF_FIELD]))
    return sendErrorPage(request, reply, 'forbidden', secret);
  const who = whoOf(request);
  const link = await ctx.links.get(who.accountId, (request.params as IdParams).id);
  const t = viewOf(request, reply, secret).t.linkForm.socialCard;
  const values = valuesOfForm(formOf(form.fields));
  const upload = { bytes: form.file, tooLarge: form.tooLarge };
  const saved = await saveCardImage(ctx, who, link.link.id, upload, ctx.clock.now());
  if ('problem' in saved) {
    const errors = { 'social_card.image': [t.problems[saved.problem]] };
    return renderLinkForm(request, reply, ctx, 422, { values, errors, existing: existingOf(ctx, link) });
  }
  const page = {
    values: withImage(values, saved.view.link.socialCard?.image ?? null),
    existing: existingOf(ctx, saved.view),
    notice: t.saved,
    open: ['social-card'],
  };
  return renderLinkForm(request, reply, ctx, 200, page);
}

async function removeImage(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const view = await removeCardImage(ctx, whoOf(request), (request.params as IdParams).id);
  const t = viewOf(request, reply, ctx.web.csrfSecret).t.linkForm.socialCard;
  const values = withImage(valuesOfForm(request.body), view.link.socialCard?.image ?? null);
  const page = { values, existing: existingOf(ctx, view), notice: t.removed, open: ['social-card'] };
  return renderLinkForm(request, reply, ctx, 200, page);
}

/**
 * Upload and removal of a link's social card image from the link form (docs/design/social-cards.md):
 * the form's buttons post it whole here, and the form comes back as typed, the card's image as it
 * now stands, or the refusal named on `social_card.image`.
 */
export function linkCardImagePages(web: FastifyInstance, ctx: WebContext): void {
  const upload = formRoute(readCardImageForm, (request, reply, form) => uploadCardImage(request, reply, ctx, form));

  // The multipart parser exists in this scope only, with room for one image and the link form's fields.
  void web.register(async (scope) => {
    await scope.register(multipart, {
      limits: {
        fileSize: CARD_IMAGE_MAX_BYTES,
        files: 1,
        fields: 2000,
        parts: 2001,
        fieldNameSize: 200,
        fieldSize: 64 * 1024,
      },
    });
    scope.post(
      '/links/:id/social-card/image',
      {
        // Cross-site posts are still refused by the app's hook; the token is checked by uploadCardImage.
        config: { csrf: 'origin' },
        bodyLimit: CARD_IMAGE_MAX_BYTES + 1024 * 1024,
        schema: { params: IdParams },
        preValidation: upload.preValidation,
      },
      upload.handler,
    );
  });

  web.post('/links/:id/social-card/image/remove', { schema: { params: IdParams } }, (request, reply) =>
    removeImage(request, reply, ctx),
  );
}
