import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { LinkView } from '../../../../core/links/link.ts';
import { Enum } from '../../../shared/schemas/common.ts';
import { QrQuery } from '../../../qr/qr-query.ts';
import { shortUrl } from '../../../shared/presenters/link-record.ts';
import { normalizeQuery } from '../../../shared/input/normalize-input.ts';
import { QR_ECC_LEVELS, QR_STYLES } from '../../../qr/qr-options.ts';
import type { QrLogo } from '../../../images/qr-logo-input.ts';
import { appLayout } from '../../ui/layout.ts';
import { sendView } from '../../app/respond.ts';
import { viewOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import { HEX_COLOUR } from './qr-contrast.ts';
import { qrPage, type QrSettings } from './link-qr-view.ts';
import { withQrMark } from '../../../../core/redirect/qr-mark.ts';

const Colour = (fallback: string) => Type.String({ pattern: HEX_COLOUR.source, default: fallback });

/** The API's size bounds, level and shape, plus what a printed code needs: its quiet zone and colours. */
export const QrPageQuery = Type.Object({
  size: QrQuery.properties.size,
  margin: Type.Integer({ minimum: 0, maximum: 16, default: 2 }),
  foreground: Colour('#000000'),
  background: Colour('#ffffff'),
  ecc: Enum(QR_ECC_LEVELS, { default: 'M' }),
  style: Enum(QR_STYLES, { default: 'square' }),
});
export type QrPageQuery = Static<typeof QrPageQuery>;

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
  const svg = good ? await ctx.qr.svg(withQrMark(text), { ...good, logo: target.logo }) : null;
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  const main = qrPage(view, {
    id: target.link.link.id,
    shortUrl: text,
    settings,
    errors,
    svg,
    logo: target.logo?.type ?? null,
  });
  return sendView(reply, status, appLayout(view, { title: view.t.linkForm.qr.title, section: '/links', main }));
}
