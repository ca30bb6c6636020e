import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LinkView } from '../../../../core/links/link.ts';
import { IdParams } from '../../../shared/schemas/common.ts';
import { visitorFrom } from '../../../ua/visitor-from-request.ts';
import { sendView } from '../../app/respond.ts';
import { viewOf, viewerOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { valuesOfForm, type LinkFormValues } from './link-form-state.ts';
import { previewOf } from './link-preview.ts';
import { previewCard, type PreviewCard } from './link-preview-view.ts';
import { withQrMark } from '../../../../core/redirect/qr-mark.ts';

/** A thumbnail: the SVG scales, so its size only sets the markup's viewBox. */
const THUMBNAIL = { size: 112, margin: 1, foreground: '#000000', background: '#ffffff' };
const NO_COUNTRIES = { country: () => null };

async function baseOf(
  ctx: WebContext,
  accountId: number,
  values: LinkFormValues,
  existing: LinkView | undefined,
): Promise<string> {
  const domainOf = async (): Promise<{ name: string } | null> => {
    if (existing) return existing.domain;
    if (!/^\d{1,15}$/.test(values.domain)) return null;
    // A domain not the account's (or gone) previews as the app's own, as the form's list would.
    return ctx.domains.get(accountId, Number(values.domain)).catch(() => null);
  };
  const domain = await domainOf();
  return domain ? `${ctx.urls.domainScheme}://${domain.name}` : ctx.urls.appUrl;
}

/** The card for these values, as this request's visitor would see the link. */
export async function previewCardFor(
  ctx: WebContext,
  request: FastifyRequest,
  values: LinkFormValues,
  existing?: LinkView,
): Promise<PreviewCard> {
  const visitor = visitorFrom(
    { ip: request.ip, headers: request.headers },
    { countries: ctx.web.countries ?? NO_COUNTRIES },
  );
  const preview = previewOf(values, await baseOf(ctx, viewerOf(request).workspace.id, values, existing), visitor);
  const qrSvg =
    preview.alias === null
      ? null
      : await ctx.qr.svg(withQrMark(`${preview.base}/${preview.alias}`), THUMBNAIL).catch(() => null);
  return { preview, qrSvg };
}

/**
 * The card again for the form as it stands, for the script that refreshes it (POST: the form's
 * body and CSRF token, checked by the web scope like any form's). Nothing is saved.
 */
export const linkPreviewPages: WebFeature = (web, ctx) => {
  const answer = async (request: FastifyRequest, reply: FastifyReply, existing?: LinkView) => {
    const card = await previewCardFor(ctx, request, valuesOfForm(request.body), existing);
    return sendView(reply, 200, previewCard(viewOf(request, reply, ctx.web.csrfSecret), card).toString());
  };
  web.post('/links/new/preview', async (request, reply) => answer(request, reply));
  web.post('/links/:id/preview', { schema: { params: IdParams } }, async (request, reply) => {
    const link = await ctx.links.get(viewerOf(request).workspace.id, (request.params as IdParams).id);
    return answer(request, reply, link);
  });
};
