import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { IdParams } from '../../../shared/schemas/common.ts';
import { MalformedMultipartError, isMalformedMultipart } from '../../../shared/input/malformed-multipart.ts';
import { QR_LOGO_MAX_BYTES } from '../../../images/qr-logo-input.ts';
import { saveLogo } from '../../../qr/qr-logo-upload.ts';
import { CSRF_FIELD, csrfTokenMatches } from '../../app/csrf.ts';
import { sendErrorPage } from '../../app/error-pages.ts';
import { seeOther } from '../../app/respond.ts';
import { csrfBinding, setFlash, viewOf, viewerOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import { withQuery } from '../../ui/components.ts';
import { webActor } from '../../app/audit-actor.ts';
import { qrQuery } from './link-qr-view.ts';
import { sendQrPage, settingsOf } from './link-qr-page.ts';
import { formRoute } from '../../app/form-route.ts';

/** A logo form's text fields (the kept settings, the token) and its file, read whole: it is small. */
interface LogoForm {
  fields: Record<string, string>;
  file: Buffer | null;
  tooLarge: boolean;
}

/**
 * Reads the multipart body before the token is checked, so the token travels in the body as in
 * every other form (never in the URL): a body this small costs nothing to read first.
 */
async function readLogoForm(request: FastifyRequest): Promise<LogoForm> {
  const form: LogoForm = { fields: {}, file: null, tooLarge: false };
  if (!request.isMultipart()) return form;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.file.truncated) form.tooLarge = true;
        else if (part.fieldname === 'logo' && bytes.length > 0) form.file = bytes;
      } else if (typeof part.value === 'string' && !Object.hasOwn(form.fields, part.fieldname)) {
        form.fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (isMalformedMultipart(error)) throw new MalformedMultipartError(error);
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
    form.tooLarge = true;
  }
  return form;
}

/** The web app's token check (plugin.ts), made here once the body is read. */
function tokenMatches(request: FastifyRequest, secret: string, form: LogoForm): boolean {
  const binding = csrfBinding(request, null);
  return binding !== null && csrfTokenMatches(secret, binding, form.fields[CSRF_FIELD]);
}

const back = (id: number, fields: Record<string, string>) =>
  withQuery(`/links/${id}/qr`, qrQuery(settingsOf(fields)), {});

async function uploadLogo(request: FastifyRequest, reply: FastifyReply, ctx: WebContext, form: LogoForm) {
  const secret = ctx.web.csrfSecret;
  if (!tokenMatches(request, secret, form)) return sendErrorPage(request, reply, 'forbidden', secret);
  const { workspace: account } = viewerOf(request);
  const link = await ctx.links.get(account.id, (request.params as IdParams).id);
  const t = viewOf(request, reply, secret).t.linkForm.qr;
  const saved = await saveLogo(
    ctx,
    account.id,
    link.link.id,
    { bytes: form.file, tooLarge: form.tooLarge },
    Date.now(),
    webActor(request),
  );
  if ('problem' in saved) {
    const logo = await ctx.qrLogos.get(account.id, link.link.id);
    return sendQrPage(ctx, request, reply, 422, { link, logo }, settingsOf(form.fields), {
      logo: [t.logoProblems[saved.problem]],
    });
  }
  setFlash(reply, t.logoSaved);
  return seeOther(reply, back(link.link.id, form.fields));
}

async function removeLogo(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { workspace: account } = viewerOf(request);
  const link = await ctx.links.get(account.id, (request.params as IdParams).id);
  await ctx.qrLogos.remove(account.id, link.link.id, Date.now(), webActor(request));
  setFlash(reply, viewOf(request, reply, ctx.web.csrfSecret).t.linkForm.qr.logoRemoved);
  const body = (request.body ?? {}) as Record<string, unknown>;
  const fields = Object.fromEntries(
    Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  return seeOther(reply, back(link.link.id, fields));
}

/** Upload and removal of a link's QR logo (docs/design/qr.md), back to the QR page with the settings kept. */
export function linkQrLogoPages(web: FastifyInstance, ctx: WebContext): void {
  const upload = formRoute(readLogoForm, (request, reply, form) => uploadLogo(request, reply, ctx, form));

  // The multipart parser exists in this scope only, with room for one logo and the form's fields.
  void web.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: QR_LOGO_MAX_BYTES, files: 1, fields: 10, parts: 11, fieldNameSize: 100, fieldSize: 1000 },
    });
    scope.post(
      '/links/:id/qr/logo',
      {
        // Cross-site posts are still refused by the app's hook; the token is checked by uploadLogo.
        config: { csrf: 'origin' },
        bodyLimit: QR_LOGO_MAX_BYTES + 64 * 1024,
        schema: { params: IdParams },
        preValidation: upload.preValidation,
      },
      upload.handler,
    );
  });

  web.post('/links/:id/qr/logo/remove', { schema: { params: IdParams } }, (request, reply) =>
    removeLogo(request, reply, ctx),
  );
}
