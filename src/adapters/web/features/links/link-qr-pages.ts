import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { LinkView } from '../../../../core/links/link.ts';
import { Enum, IdParams } from '../../../http/schemas/common.ts';
import { QrQuery } from '../../../http/schemas/qr.ts';
import { shortUrl } from '../../../http/presenters/link-record.ts';
import { fieldErrorsOf } from '../../../http/validation-errors.ts';
import { normalizeQuery } from '../../../http/normalize-input.ts';
import { QR_ECC_LEVELS, QR_STYLES, type QrLogo } from '../../../qr/qr-options.ts';
import { appLayout } from '../../ui/layout.ts';
import { sendView } from '../../app/respond.ts';
import { viewOf, viewerOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { HEX_COLOUR } from './qr-contrast.ts';
import { qrPage, type QrSettings } from './link-qr-view.ts';
import { refuseBadParams } from './link-params.ts';
import { linkQrLogoPages } from './link-qr-logo-pages.ts';

const Colour = (fallback: string) => Type.String({ pattern: HEX_COLOUR.source, default: fallback });

/** The API's size bounds, level and shape, plus what a printed code needs: its quiet zone and colours. */
const QrPageQuery = Type.Object({
  size: QrQuery.properties.size,
  margin: Type.Integer({ minimum: 0, maximum: 16, default: 2 }),
  foreground: Colour('#000000'),
  background: Colour('#ffffff'),
  ecc: Enum(QR_ECC_LEVELS, { default: 'M' }),
  style: Enum(QR_STYLES, { default: 'square' }),
});
type QrPageQuery = Static<typeof QrPageQuery>;

const routeOptions = {
  attachValidation: true,
  schema: { params: IdParams, querystring: QrPageQuery },
  // Empty boxes (a cleared number field) mean "the default", as in the API's queries.
  preValidation: async (request: FastifyRequest) => {
    request.query = normalizeQuery(request.query);
  },
};

/** The settings as typed, for the form (a refused value stays in its box). */
export function settingsOf(query: unknown): QrSettings {
  const q = (query && typeof query === 'object' ? query : {}) as Record<string, unknown>;
  const s = (v: unknown, fallback: string) => (typeof v === 'string' || typeof v === 'number' ? String(v) : fallback);
  return {
    size: s(q.size, '300'),
    margin: s(q.margin, '2'),
    foreground: s(q.foreground, '#000000'),
    background: s(q.background, '#ffffff'),
    ecc: s(q.ecc, 'M'),
    style: s(q.style, 'square'),
  };
}

/** The settings if the page's schema takes them (the logo forms send them back as fields), else null. */
function drawable(settings: QrSettings): QrPageQuery | null {
  try {
    return Value.Parse(QrPageQuery, normalizeQuery({ ...settings }));
  } catch {
    return null;
  }
}

/**
 * The QR page: the code drawn with the settings when they are good (null: the form alone, its
 * faults named), the settings form and the logo forms.
 */
export async function sendQrPage(
  ctx: WebContext,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  target: { link: LinkView; logo: QrLogo | null },
  settings: QrSettings,
  errors: FieldErrors | undefined,
  good: QrPageQuery | null = drawable(settings),
): Promise<FastifyReply> {
  const text = shortUrl(target.link, ctx.urls);
  const svg = good ? await ctx.qr.svg(text, { ...good, logo: target.logo }) : null;
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  const main = qrPage(view, { id: target.link.link.id, shortUrl: text, settings, errors, svg, logo: target.logo?.type ?? null });
  return sendView(reply, status, appLayout(view, { title: view.t.linkForm.qr.title, section: '/links', main }));
}

export const linkQrPages: WebFeature = (web, ctx) => {
  /**
   * The link, its logo and the settings, or null once the page has been answered again with the
   * bad settings named (422). Never the reply itself: a reply is a thenable, so an async
   * function returning it resolves to undefined once it is sent.
   */
  const read = async (request: FastifyRequest, reply: FastifyReply): Promise<{ link: LinkView; logo: QrLogo | null; text: string; q: QrPageQuery } | null> => {
    refuseBadParams(request);
    const { account } = viewerOf(request);
    const link = await ctx.links.get(account.id, (request.params as IdParams).id);
    const logo = await ctx.qrLogos.get(account.id, link.link.id);
    const failure = request.validationError as (Error & { validation?: unknown }) | undefined;
    if (failure) {
      const errors: FieldErrors = Array.isArray(failure.validation) ? fieldErrorsOf(failure.validation) : { size: [failure.message] };
      await sendQrPage(ctx, request, reply, 422, { link, logo }, settingsOf(request.query), errors, null);
      return null;
    }
    return { link, logo, text: shortUrl(link, ctx.urls), q: request.query as QrPageQuery };
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
        .header('content-disposition', `attachment; filename="link-${got.link.link.id}-qr.${format}"`)
        .header('x-content-type-options', 'nosniff')
        // An SVG opened from this origin is a document of it: it may run nothing.
        .header('content-security-policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'none'");
      return reply.type(format === 'png' ? 'image/png' : 'image/svg+xml').send(image);
    });
  }

  linkQrLogoPages(web, ctx);
};
