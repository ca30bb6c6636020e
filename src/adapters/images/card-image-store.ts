import type { CardImage } from './card-image-input.ts';
import type { CardImageWriter } from './card-image-upload.ts';

/** A stored card image and the workspace of its link, as the public route reads it. */
export interface StoredCardImage {
  accountId: number;
  image: CardImage;
}

/**
 * Where links' card images are kept (storage's SqlCardImageStore), as both doors and the public
 * route use it: written and removed through their owner's link, found by the link's id alone.
 */
export interface CardImageStore extends CardImageWriter {
  find(linkId: number): Promise<StoredCardImage | null>;
}
