import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../core/shared/errors.ts';
import type { LinkView } from '../../core/links/link.ts';
import { linkStateOf } from '../../core/links/link-state.ts';
import { uploadedCardImage } from '../../core/links/social-card.ts';
import type { StoredCardImage } from './card-image-store.ts';
import { cardImageHash } from './card-image-input.ts';
import { sendImage } from '../shared/request/image-headers.ts';

/** What the route reads: the stored image (whoever owns it), then its link as its owner sees it. */
export interface CardImageReading {
  cardImages: { find(linkId: number): Promise<StoredCardImage | null> };
  links: { get(accountId: number, id: number): Promise<LinkView> };
  clock: { now(): number };
}

type CardImageRequest = FastifyRequest<{ Params: { id: string; hash: string } }>;

// Shared caches may keep it an hour: a new image is a new address, and a link disabled or given a
// password stops being served here at once, while a copy already fetched ages out.
const CACHE = 'public, max-age=3600';

/**
 * Whether the link shows this image on its card: the card names this very address, and the link
 * shows a card at all (no password; not disabled, expired, taken down), as the unfurler's page does.
 */
function shows(view: LinkView, hash: string, now: number): boolean {
  const named = uploadedCardImage(view.link.socialCard?.image ?? null);
  if (named === null || named.linkId !== view.link.id || named.hash !== hash) return false;
  return view.link.passwordHash === null && linkStateOf(view.link, now) === 'active';
}

/**
 * GET /public/cards/{link id}/{hash}.png (docs/design/social-cards.md): a link's uploaded card
 * image, the og:image its card names, with no key or session, since unfurlers fetch it. Anything
 * else (no such image, another hash, a link whose card is not shown) is the app's 404.
 */
export function registerCardImageRoute(app: FastifyInstance, ctx: CardImageReading): void {
  app.get(
    '/public/cards/:id(^[1-9][0-9]{0,15})/:hash(^[0-9a-f]{16}).png',
    { schema: { hide: true }, config: { visitor: true } },
    async (request: CardImageRequest, reply: FastifyReply) => {
      const id = Number(request.params.id);
      const { hash } = request.params;
      const stored = await ctx.cardImages.find(id);
      const view = stored ? await ctx.links.get(stored.accountId, id).catch(notFoundAsNull) : null;
      if (stored === null || view === null || !shows(view, hash, ctx.clock.now())) return reply.callNotFound();
      // The card may name an earlier upload (a version restored): its address must not serve the newer bytes.
      // The bytes are at most CARD_IMAGE_MAX_STORED_BYTES: hashing them is short.
      if (cardImageHash(stored.image.bytes) !== hash) return reply.callNotFound();
      const etag = `"${hash}"`;
      reply.header('cache-control', CACHE).header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return sendImage(reply.code(200), 'image/png', Buffer.from(stored.image.bytes));
    },
  );
}

function notFoundAsNull(error: unknown): null {
  if (error instanceof NotFoundError) return null;
  throw error;
}
