import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { LinkView } from '../../../../core/links/link.ts';
import { IdParams } from '../../../shared/schemas/common.ts';
import { shortUrl } from '../../../shared/presenters/link-record.ts';
import { fieldErrorsOf } from '../../../shared/input/validation-errors.ts';
import { normalizeQuery } from '../../../shared/input/normalize-input.ts';
import { sendImage } from '../../../shared/request/image-headers.ts';
import type { QrLogo } from '../../../images/qr-logo-input.ts';
import { viewOf, viewerOf } from '../../app/view.ts';
import type { WebFeature } from '../feature.ts';
import { QrPageQuery, sendQrPage, settingsOf } from './link-qr-page.ts';
import { refuseBadParams } from './link-params.ts';
import { linkQrLogoPages } from './link-qr-logo-pages.ts';
import { withQrMark } from '../../../../core/redirect/qr-mark.ts';

const routeOptions = {
  attachValidation: true,
  schema: { params: IdParams, querystring: QrPageQuery },
  // Empty boxes (a cleared number field) mean "the default", as in the API's queries.
  preValidation: async (request: FastifyRequest) => {
    request.query = normalizeQuery(request.query);
  },
};

export const linkQrPages: WebFeature = (web, ctx) => {
  /**
   * The link, its logo and the settings, or null once the page has been answered again with the
   * bad settings named (422). Never the reply itself: a reply is a thenable, so an async
   * function returning it resolves to undefined once it is sent.
   */
  const read = async (
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ link: LinkView; logo: QrLogo | null; text: string; q: QrPageQuery } | null> => {
    refuseBadParams(request);
    const { workspace: account } = viewerOf(request);
    const link = await ctx.links.get(account.id, (request.params as IdParams).id);
    const logo = await ctx.qrLogos.get(account.id, link.link.id);
    const failure = request.validationError as (Error & { validation?: unknown }) | undefined;
    if (failure) {
      const errors: FieldErrors = Array.isArray(failure.validation)
        ? fieldErrorsOf(failure.validation)
        : { size: [failure.message] };
      await sendQrPage(ctx, request, reply, 422, { link, logo }, settingsOf(request.query), errors, null);
      return null;
    }
    return { link, logo, text: withQrMark(shortUrl(link, ctx.urls)), q: request.query as QrPageQuery };
  };

  web.get('/links/:id/qr', routeOptions, async (request, reply) => {
    const got = await read(request, reply);
    if (got === null) return reply;
    return sendQrPage(ctx, request, reply, 200, got, settingsOf(got.q), undefined, got.q);
  });

  for (const format of ['png', 'svg'] as const) {
    web.get(`/links/:id/qr.${format}`, routeOptions, async (request, reply) => {
      const got = await read(request, reply);
      if (got === null) return reply;
      if (format === 'png' && got.logo?.type === 'svg') {
        const t = viewOf(request, reply, ctx.web.csrfSecret).t.linkForm.qr;
        return sendQrPage(ctx, request, reply, 422, got, settingsOf(got.q), { logo: [t.pngNeedsPngLogo] }, got.q);
      }
      const settings = { ...got.q, logo: got.logo };
      // Drawn before any header is set: a refusal (a full render queue) gets only its own.
      const image = format === 'png' ? await ctx.qr.png(got.text, settings) : await ctx.qr.svg(got.text, settings);
      reply
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="link-${got.link.link.id}-qr.${format}"`);
      return sendImage(reply, format === 'png' ? 'image/png' : 'image/svg+xml', image);
    });
  }

  linkQrLogoPages(web, ctx);
};
