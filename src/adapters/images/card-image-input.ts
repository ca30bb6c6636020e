import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import { decodePng, hasPngSignature, type PngProblem } from './png-check.ts';

/** A social card's uploaded image as stored: a PNG re-encoded from its pixels alone. */
export interface CardImage {
  type: 'png';
  bytes: Uint8Array;
}

/** The largest card image file taken. */
export const CARD_IMAGE_MAX_BYTES = 1024 * 1024;

/** Unfurlers draw a card at most about 1200 × 630; a larger side is only more pixels to decode. */
export const CARD_IMAGE_MAX_SIDE = 2048;

/** What the pixels may take decoded (png-header.ts): a 2048 × 1024 RGBA image at 8 bits a sample. */
export const CARD_IMAGE_MAX_DECODED_BYTES = 2048 * 1024 * 4;

/** The most the re-encoded file may take: pixels that deflate badly are refused, not stored without bound. */
export const CARD_IMAGE_MAX_STORED_BYTES = 2 * CARD_IMAGE_MAX_BYTES;

/** The hash an image's address names (core/links/social-card.ts, `cardImagePath`): 16 hex digits of its SHA-256. */
export const cardImageHash = (bytes: Uint8Array): string =>
  createHash('sha256').update(bytes).digest('hex').slice(0, 16);

/** Why an upload is not a card image: each has its message in the web app's and the API's copy. */
export type CardImageProblem = 'tooLarge' | 'notImage' | PngProblem | 'tooComplex';

/**
 * The card image an upload holds, told by its bytes (never its name or declared type): a PNG
 * that decodes within the bounds, re-encoded from its pixels, so that nothing of the file but
 * its image is served (text chunks, EXIF, colour profiles, trailing bytes all dropped). JPEG is
 * not read: no decoder is at hand. Decoding grows with the pixels, so this runs in an image
 * thread (image-threads.ts), never on the event loop. docs/design/social-cards.md.
 */
export function readCardImage(bytes: Uint8Array): { image: CardImage } | { problem: CardImageProblem } {
  if (bytes.length > CARD_IMAGE_MAX_BYTES) return { problem: 'tooLarge' };
  if (!hasPngSignature(bytes)) return { problem: 'notImage' };
  const read = decodePng(Buffer.from(bytes), {
    maxSide: CARD_IMAGE_MAX_SIDE,
    maxDecodedBytes: CARD_IMAGE_MAX_DECODED_BYTES,
  });
  if ('problem' in read) return read;
  // pngjs hands 8-bit RGBA whatever the file held; written back, only IHDR, IDAT and IEND remain.
  const clean = PNG.sync.write(read.png, { colorType: 6, bitDepth: 8 });
  if (clean.length > CARD_IMAGE_MAX_STORED_BYTES) return { problem: 'tooComplex' };
  return { image: { type: 'png', bytes: clean } };
}
