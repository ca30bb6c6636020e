import type { AuditActor } from '../../core/audit/audit-entry.ts';
import type { LinkView } from '../../core/links/link.ts';
import type { LinkInput } from '../../core/links/link-input.ts';
import { cardImagePath, uploadedCardImage, type SocialCard } from '../../core/links/social-card.ts';
import { cardImageHash, type CardImage, type CardImageProblem } from './card-image-input.ts';
import type { ImageThreads } from './image-threads.ts';

/** Where links' card images are kept (storage's SqlCardImageStore), as both doors use it. */
export interface CardImageWriter {
  put(accountId: number, linkId: number, image: CardImage, now: number): Promise<boolean>;
  remove(accountId: number, linkId: number): Promise<void>;
}

/** What saving or removing a card image needs: its store, the image threads, the links service, APP_URL. */
export interface CardImageSaving {
  cardImages: CardImageWriter;
  images: Pick<ImageThreads, 'run'>;
  links: {
    get(accountId: number, id: number): Promise<LinkView>;
    update(accountId: number, timeZone: string, id: number, input: LinkInput, actor: AuditActor): Promise<LinkView>;
  };
  urls: { appUrl: string };
}

/** An upload as a multipart reader saw it: the file's bytes (none, or an empty part) and whether it was cut at the limit. */
export interface CardImageUpload {
  bytes: Uint8Array | null;
  tooLarge: boolean;
}

/** Why an upload was refused: a problem of the file itself, or no file at all. */
export type CardUploadProblem = CardImageProblem | 'missing';

/** Who asks, in which workspace and time zone (the link's update takes it). */
export interface CardImageActor {
  accountId: number;
  timeZone: string;
  actor: AuditActor;
}

const cardOf = (view: LinkView): SocialCard => view.link.socialCard ?? { title: null, description: null, image: null };

/**
 * The one rule set for a card's uploaded image, whichever door it comes through (the web form,
 * the API's PUT): read by its bytes and re-encoded in an image thread (images/card-image-input.ts),
 * stored, then named by the link's `social_card.image` through the link's own update (its audit
 * entry, webhook and redirect cache). A refusal writes nothing. docs/design/social-cards.md.
 */
export async function saveCardImage(
  deps: CardImageSaving,
  who: CardImageActor,
  linkId: number,
  upload: CardImageUpload,
  now: number,
): Promise<{ view: LinkView } | { problem: CardUploadProblem }> {
  if (upload.tooLarge) return { problem: 'tooLarge' };
  if (upload.bytes === null || upload.bytes.length === 0) return { problem: 'missing' };
  const read = await deps.images.run('readCardImage', upload.bytes);
  if ('problem' in read) return read;
  const current = cardOf(await deps.links.get(who.accountId, linkId));
  await deps.cardImages.put(who.accountId, linkId, read.image, now);
  const hash = cardImageHash(read.image.bytes);
  const image = `${deps.urls.appUrl.replace(/\/+$/, '')}${cardImagePath(linkId, hash)}`;
  const view = await deps.links.update(
    who.accountId,
    who.timeZone,
    linkId,
    { social_card: { ...current, image } },
    who.actor,
  );
  return { view };
}

/**
 * Removes the link's uploaded image, and the card's `image` when it names that upload (an image
 * URL given since stays); no upload: nothing changes.
 */
export async function removeCardImage(deps: CardImageSaving, who: CardImageActor, linkId: number): Promise<LinkView> {
  const view = await deps.links.get(who.accountId, linkId);
  await deps.cardImages.remove(who.accountId, linkId);
  const card = cardOf(view);
  if (uploadedCardImage(card.image)?.linkId !== linkId) return view;
  return deps.links.update(who.accountId, who.timeZone, linkId, { social_card: { ...card, image: null } }, who.actor);
}
