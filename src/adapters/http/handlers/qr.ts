import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdParams } from '../../shared/schemas/common.ts';
import type { QrQuery } from '../../qr/qr-query.ts';
import { shortUrl } from '../../shared/presenters/link-record.ts';
import { withQrMark } from '../../../core/redirect/qr-mark.ts';
import { API_QR_LOOK } from '../../qr/qr-options.ts';
import type { ApiContext } from './context.ts';
import { sendImage } from '../../shared/request/image-headers.ts';

/** A QR code of a link's short URL: SVG by default, PNG on request; owner-only like every API route. */
export function qrHandler(ctx: ApiContext) {
  return async (request: FastifyRequest<{ Params: IdParams; Querystring: QrQuery }>, reply: FastifyReply) => {
    const view = await ctx.links.get(request.account.id, request.params.id);
    const text = withQrMark(shortUrl(view, ctx.urls));
    const { format, size, ecc, style } = request.query;
    const logo = request.query.logo ? await ctx.qrLogos.get(request.account.id, view.link.id) : null;
    const settings = { ...API_QR_LOOK, size, ecc, style, logo };
    // Drawn before any header is set: a refusal (a full render queue) gets only its own.
    const image = format === 'png' ? await ctx.qr.png(text, settings) : await ctx.qr.svg(text, settings);
    reply
      .header('cache-control', 'private, max-age=300')
      .header('content-disposition', `inline; filename="link-${view.link.id}.${format}"`);
    return sendImage(reply, format === 'png' ? 'image/png' : 'image/svg+xml', image);
  };
}
