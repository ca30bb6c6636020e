import type { FastifyReply, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import type { IdParams } from '../schemas/common.ts';
import type { QrQuery } from '../schemas/qr.ts';
import { shortUrl } from '../presenters/link-record.ts';
import type { ApiContext } from './context.ts';

/** A QR code of a link's short URL: SVG by default, PNG on request; owner-only like every API route. */
export function qrHandler(ctx: ApiContext) {
  return async (request: FastifyRequest<{ Params: IdParams; Querystring: QrQuery }>, reply: FastifyReply) => {
    const view = await ctx.links.get(request.account.id, request.params.id);
    const text = shortUrl(view, ctx.urls);
    const { format, size } = request.query;
    const options = { errorCorrectionLevel: 'M' as const, margin: 2, width: size };
    reply.header('cache-control', 'private, max-age=300').header('content-disposition', `inline; filename="link-${view.link.id}.${format}"`);
    if (format === 'png') return reply.type('image/png').send(await QRCode.toBuffer(text, { ...options, type: 'png' }));
    return reply.type('image/svg+xml').send(await QRCode.toString(text, { ...options, type: 'svg' }));
  };
}
