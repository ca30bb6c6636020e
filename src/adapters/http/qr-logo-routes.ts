import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../../core/shared/errors.ts';
import { PNG_MAX_DECODED_BYTES, QR_LOGO_MAX_BYTES } from '../images/qr-logo-input.ts';
import { saveLogo, type LogoUpload, type UploadProblem } from '../qr/qr-logo-upload.ts';
import type { ApiContext } from './handlers/context.ts';
import { apiActor } from './audit-actor.ts';
import { readSingleFile } from './single-file-part.ts';
import { DeletedEnvelope, IdParams, OneEnvelope, errorResponses } from '../shared/schemas/common.ts';
import { QrLogoSettings } from './schemas/qr.ts';

/** The API's copy of the web page's messages (i18n/en/link-form.ts), one per refusal. */
const PROBLEMS: Record<UploadProblem, string> = {
  missing: 'The logo field is required: a PNG or SVG file.',
  tooLarge: `The logo must be at most ${QR_LOGO_MAX_BYTES / 1024} KB.`,
  notImage: 'The logo must be a PNG or SVG image.',
  badPng: 'The logo is not a PNG that can be read.',
  pngTooBig: 'The logo must be at most 1024 × 1024 pixels.',
  pngTooDeep: `The logo must take at most ${PNG_MAX_DECODED_BYTES / 1024 / 1024} MB decoded (width × height × channels × bytes per sample): save it at 8 bits per sample, or smaller.`,
  badSvg: 'The logo has no drawing left once scripts and outside references are removed.',
};

const uploads = new WeakMap<FastifyRequest, LogoUpload>();
/** Requests whose body was not multipart: told after the path's id is read (a bad id stays a 404). */
const notMultipart = new WeakSet<FastifyRequest>();
const NOT_MULTIPART = 'Send the logo as multipart/form-data in a field named logo.';

/**
 * Reads the one `logo` file of a multipart body whole (it is at most 100 KB; other parts are
 * skipped) before validation, and leaves the body as the schema sees it: `logo` present or not.
 */
async function readUpload(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) {
    notMultipart.add(request);
    request.body = { logo: 'none' };
    return;
  }
  const upload: LogoUpload = await readSingleFile(request, 'logo');
  uploads.set(request, upload);
  request.body = upload.bytes !== null || upload.tooLarge ? { logo: 'file' } : {};
}

const security = [{ bearerAuth: [] }];

/**
 * PUT and DELETE /api/v1/links/{id}/qr-logo (api.md §6, docs/design/qr.md): the web page's upload
 * through the API, the same rules (qr-logo-upload.ts). Its own scope, so the multipart parser and
 * its limits (one file of 100 KB, a few small fields) exist for this route only.
 */
export async function registerQrLogoRoutes(api: FastifyInstance, ctx: ApiContext): Promise<void> {
  await api.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: QR_LOGO_MAX_BYTES, files: 1, fields: 10, parts: 11, fieldNameSize: 100, fieldSize: 1000 },
    });
    scope.put(
      '/api/v1/links/:id/qr-logo',
      {
        bodyLimit: QR_LOGO_MAX_BYTES + 64 * 1024,
        preValidation: readUpload,
        schema: {
          tags: ['Links'],
          security,
          summary: "Set the logo drawn in the centre of the link's QR code (PNG or SVG, at most 100 KB)",
          consumes: ['multipart/form-data'],
          params: IdParams,
          body: {
            type: 'object',
            required: ['logo'],
            properties: {
              logo: {
                type: 'string',
                format: 'binary',
                description: 'A PNG (at most 1024 × 1024, 4 MB decoded) or an SVG (sanitised), at most 100 KB',
              },
            },
          },
          response: { 200: OneEnvelope(QrLogoSettings), ...errorResponses },
        },
      },
      async (request: FastifyRequest, reply: FastifyReply) => {
        const upload = uploads.get(request) ?? { bytes: null, tooLarge: false };
        const { id } = request.params as IdParams;
        const view = await ctx.links.get(request.account.id, id);
        if (notMultipart.has(request)) throw ValidationError.of('logo', NOT_MULTIPART);
        const saved = await saveLogo(ctx, request.account.id, view.link.id, upload, Date.now(), apiActor(request));
        if ('problem' in saved) throw ValidationError.of('logo', PROBLEMS[saved.problem]);
        const data: QrLogoSettings = {
          id: view.link.id,
          logo: { type: saved.logo.type, bytes: saved.logo.bytes.length },
        };
        return reply.send({ data, status: 200 });
      },
    );
  });
  api.delete(
    '/api/v1/links/:id/qr-logo',
    {
      schema: {
        tags: ['Links'],
        security,
        summary: "Remove the logo of the link's QR code (no error when it has none)",
        params: IdParams,
        response: { 200: DeletedEnvelope('qr_logo'), ...errorResponses },
      },
    },
    async (request: FastifyRequest) => {
      const view = await ctx.links.get(request.account.id, (request.params as IdParams).id);
      await ctx.qrLogos.remove(request.account.id, view.link.id, Date.now(), apiActor(request));
      return { id: view.link.id, object: 'qr_logo' as const, deleted: true as const, status: 200 as const };
    },
  );
}
