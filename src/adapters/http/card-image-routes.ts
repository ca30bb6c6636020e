import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../../core/shared/errors.ts';
import {
  CARD_IMAGE_MAX_BYTES,
  CARD_IMAGE_MAX_DECODED_BYTES,
  CARD_IMAGE_MAX_SIDE,
  CARD_IMAGE_MAX_STORED_BYTES,
} from '../images/card-image-input.ts';
import {
  removeCardImage,
  saveCardImage,
  type CardImageUpload,
  type CardUploadProblem,
} from '../images/card-image-upload.ts';
import type { ApiContext } from './handlers/context.ts';
import { apiActor } from './audit-actor.ts';
import { readSingleFile } from './single-file-part.ts';
import { DeletedEnvelope, IdParams, OneEnvelope, errorResponses } from '../shared/schemas/common.ts';
import { LinkRecord } from '../shared/schemas/link.ts';
import { linkRecord } from '../shared/presenters/link-record.ts';

const FIELD = 'social_card.image';
const MB = 1024 * 1024;

/** The API's copy of the web form's messages (i18n/en/link-form.ts), one per refusal. */
const PROBLEMS: Record<CardUploadProblem, string> = {
  missing: `The ${FIELD} field is required: a PNG file.`,
  tooLarge: `The ${FIELD} file must be at most ${CARD_IMAGE_MAX_BYTES / MB} MB.`,
  notImage: `The ${FIELD} file must be a PNG image.`,
  badPng: `The ${FIELD} file is not a PNG that can be read.`,
  pngTooBig: `The ${FIELD} image must be at most ${CARD_IMAGE_MAX_SIDE} × ${CARD_IMAGE_MAX_SIDE} pixels.`,
  pngTooDeep: `The ${FIELD} image must take at most ${CARD_IMAGE_MAX_DECODED_BYTES / MB} MB decoded (width × height × channels × bytes per sample): save it at 8 bits per sample, or smaller.`,
  tooComplex: `The ${FIELD} image takes more than ${CARD_IMAGE_MAX_STORED_BYTES / MB} MB once re-encoded: save it smaller.`,
};

const uploads = new WeakMap<FastifyRequest, CardImageUpload>();
/** Requests whose body was not multipart: told after the path's id is read (a bad id stays a 404). */
const notMultipart = new WeakSet<FastifyRequest>();
const NOT_MULTIPART = `Send the ${FIELD} file as multipart/form-data in a field named image.`;

/**
 * Reads the one `image` file of a multipart body whole (it is at most 1 MB; other parts are
 * skipped) before validation, and leaves the body as the schema sees it: `image` present or not.
 */
async function readUpload(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) {
    notMultipart.add(request);
    request.body = { image: 'none' };
    return;
  }
  const upload: CardImageUpload = await readSingleFile(request, 'image');
  uploads.set(request, upload);
  request.body = upload.bytes !== null || upload.tooLarge ? { image: 'file' } : {};
}

const security = [{ bearerAuth: [] }];

const whoOf = (request: FastifyRequest) => ({
  accountId: request.account.id,
  timeZone: request.account.timezone,
  actor: apiActor(request),
});

/**
 * PUT and DELETE /api/v1/links/{id}/social-card/image (api.md §5, docs/design/social-cards.md):
 * the web form's upload through the API, the same rules (card-image-upload.ts). Its own scope,
 * so the multipart parser and its limits (one file of 1 MB, a few small fields) exist for this
 * route only, as for the QR logo's (qr-logo-routes.ts).
 */
export async function registerCardImageRoutes(api: FastifyInstance, ctx: ApiContext): Promise<void> {
  await api.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: CARD_IMAGE_MAX_BYTES, files: 1, fields: 10, parts: 11, fieldNameSize: 100, fieldSize: 1000 },
    });
    scope.put(
      '/api/v1/links/:id/social-card/image',
      {
        bodyLimit: CARD_IMAGE_MAX_BYTES + 64 * 1024,
        preValidation: readUpload,
        schema: {
          tags: ['Links'],
          security,
          summary:
            "Upload the image of the link's social card (a PNG, at most 1 MB): `social_card.image` then names it",
          consumes: ['multipart/form-data'],
          params: IdParams,
          body: {
            // No `required`: a missing file is the handler's 422, named as the card's field.
            type: 'object',
            properties: {
              image: {
                type: 'string',
                format: 'binary',
                description: `A PNG of at most ${CARD_IMAGE_MAX_SIDE} × ${CARD_IMAGE_MAX_SIDE} pixels (${CARD_IMAGE_MAX_DECODED_BYTES / MB} MB decoded), at most 1 MB; re-encoded before it is kept`,
              },
            },
          },
          response: { 200: OneEnvelope(LinkRecord), ...errorResponses },
        },
      },
      async (request: FastifyRequest, reply: FastifyReply) => {
        const upload = uploads.get(request) ?? { bytes: null, tooLarge: false };
        const { id } = request.params as IdParams;
        const view = await ctx.links.get(request.account.id, id);
        if (notMultipart.has(request)) throw ValidationError.of(FIELD, NOT_MULTIPART);
        const saved = await saveCardImage(ctx, whoOf(request), view.link.id, upload, ctx.clock.now());
        if ('problem' in saved) throw ValidationError.of(FIELD, PROBLEMS[saved.problem]);
        return reply.send({ data: linkRecord(saved.view, ctx.urls), status: 200 });
      },
    );
  });
  api.delete(
    '/api/v1/links/:id/social-card/image',
    {
      schema: {
        tags: ['Links'],
        security,
        summary:
          "Remove the uploaded image of the link's social card, and `social_card.image` when it names it (no error when there is none)",
        params: IdParams,
        response: { 200: DeletedEnvelope('social_card_image'), ...errorResponses },
      },
    },
    async (request: FastifyRequest) => {
      const view = await removeCardImage(ctx, whoOf(request), (request.params as IdParams).id);
      return { id: view.link.id, object: 'social_card_image' as const, deleted: true as const, status: 200 as const };
    },
  );
}
