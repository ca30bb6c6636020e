/**
 * The tasks an image thread runs (image-threads.ts), one named export each: every read of an
 * uploaded image whose cost grows with its pixels or its markup (a QR logo, a social card's
 * image). A new upload adds its reader here and calls `ImageThreads.run` with its name.
 * docs/design/images.md.
 */
export { readLogo } from './qr-logo-input.ts';
export { readCardImage } from './card-image-input.ts';
