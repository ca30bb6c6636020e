import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { LinkView } from '../../../../core/links/link.ts';
import { IdParams } from '../../../http/schemas/common.ts';
import { QrQuery } from '../../../http/schemas/qr.ts';
import { shortUrl } from '../../../http/presenters/link-record.ts';
import { fieldErrorsOf } from '../../../http/validation-errors.ts';
import { normalizeQuery } from '../../../http/normalize-input.ts';
import { appLayout } from '../../ui/layout.ts';
import { sendView } from '../../app/respond.ts';
import { viewOf, viewerOf } from '../../app/view.ts';
import type { WebFeature } from '../feature.ts';
import { HEX_COLOUR } from './qr-contrast.ts';
import { qrPage, type QrSettings } from './link-qr-view.ts';
import { refuseBadParams } from './link-params.ts';

const Colour = (fallback: string) => Type.String({ pattern: HEX_COLOUR.source, default: fallback });

/** The API's size bounds, plus what a printed code needs: its quiet zone and colours. */
const QrPageQuery = Type.Object({
  size: QrQuery.properties.size,
  margin: Type.Integer({ minimum: 0, maximum: 16, default: 2 }),
  foreground: Colour('#000000'),
  background: Colour('#ffffff'),
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

export const linkQrPages: WebFeature = (web, ctx) => {
  const secret = ctx.web.csrfSecret;

  /**
   * The link and the settings, or null once the page has been answered again with the bad
   * settings named (422). Never the reply itself: a reply is a thenable, so an async function
   * returning it resolves to undefined once it is sent.
   */
  const read = async (request: FastifyRequest, reply: FastifyReply): Promise<{ link: LinkView; text: string; q: QrPageQuery } | null> => {
    refuseBadParams(request);
    const { account } = viewerOf(request);
    const link = await ctx.links.get(account.id, (request.params as IdParams).id);
    const text = shortUrl(link, ctx.urls);
    const failure = request.validationError as (Error & { validation?: unknown }) | undefined;
    if (failure) {
      const errors: FieldErrors = Array.isArray(failure.validation) ? fieldErrorsOf(failure.validation) : { size: [failure.message] };
      page(request, reply, 422, link, text, settingsOf(request.query), errors, null);
      return null;
    }
    return { link, text, q: request.query as QrPageQuery };
  };

  const page = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    link: LinkView,
    text: string,
    settings: QrSettings,
    errors: FieldErrors | undefined,
    svg: string | null,
  ) => {
    const view = viewOf(request, reply, secret);
    const main = qrPage(view, { id: link.link.id, shortUrl: text, settings, errors, svg });
    return sendView(reply, status, appLayout(view, { title: view.t.linkForm.qr.title, section: '/links', main }));
  };

  web.get('/links/:id/qr', routeOptions, async (request, reply) => {
    const got = await read(request, reply);
    if (got === null) return reply;
    const svg = await ctx.qr.svg(got.text, got.q);
    return page(request, reply, 200, got.link, got.text, settingsOf(got.q), undefined, svg);
  });

  for (const format of ['png', 'svg'] as const) {
    web.get(`/links/:id/qr.${format}`, routeOptions, async (request, reply) => {
      const got = await read(request, reply);
      if (got === null) return reply;
      // Drawn before any header is set: a refusal (a full render queue) gets only its own.
      const image = format === 'png' ? await ctx.qr.png(got.text, got.q) : await ctx.qr.svg(got.text, got.q);
      reply
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="link-${got.link.link.id}-qr.${format}"`)
        .header('x-content-type-options', 'nosniff')
        // An SVG opened from this origin is a document of it: it may run nothing.
        .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
      return reply.type(format === 'png' ? 'image/png' : 'image/svg+xml').send(image);
    });
  }
};

/** The settings as typed, for the form (a refused value stays in its box). */
function settingsOf(query: unknown): QrSettings {
  const q = (query && typeof query === 'object' ? query : {}) as Record<string, unknown>;
  const s = (v: unknown, fallback: string) => (typeof v === 'string' || typeof v === 'number' ? String(v) : fallback);
  return { size: s(q.size, '300'), margin: s(q.margin, '2'), foreground: s(q.foreground, '#000000'), background: s(q.background, '#ffffff') };
}
