import { isUtf8 } from 'node:buffer';
import { sanitiseSvgLogo } from './svg-logo.ts';
import { decodePng, hasPngSignature } from './png-check.ts';

/** A link's logo as stored: a PNG, or an SVG already sanitised (svg-logo.ts). */
export interface QrLogo {
  type: 'png' | 'svg';
  bytes: Uint8Array;
}

/** The largest logo file taken (PNG or SVG). */
export const QR_LOGO_MAX_BYTES = 100 * 1024;

// A logo fills at most a fifth of a 2048 px code; a larger PNG is only more pixels to decode,
// and a small file can declare a huge image (it deflates well), so its header is read first.
const PNG_MAX_SIDE = 1024;

/**
 * The most a logo's pixels may take once decoded (width × height × channels × bytes per sample):
 * an 8-bit RGBA PNG of the largest side. 16 bits a sample draw no finer into an 8-bit code.
 */
export const PNG_MAX_DECODED_BYTES = PNG_MAX_SIDE * PNG_MAX_SIDE * 4;

// An SVG's prologue: an XML declaration, then comments and a DOCTYPE, then <svg. A comment
// cannot hold `-->` and an internal subset cannot hold `]`, so each part matches one way only
// (a lazy `[\s\S]*?` there let a file of many comments backtrack for minutes).
const SVG_START = /^\s*(<\?xml[^>]*>\s*)?(<!--(?:(?!-->)[\s\S])*-->\s*|<!DOCTYPE[^>[]*(\[[^\]]*\])?\s*>\s*)*<svg[\s>]/i;

/** Why an upload is not a logo: each has its message in the web app's and the API's copy. */
export type LogoProblem = 'tooLarge' | 'notImage' | 'badPng' | 'pngTooBig' | 'pngTooDeep' | 'badSvg';

/**
 * The logo an upload holds, told by its bytes (never its name or declared type): a PNG that
 * decodes, or an SVG rebuilt by the sanitiser (svg-logo.ts). Decoding and sanitising grow with
 * the file, so this runs in an image thread (images/image-threads.ts), never on the event loop.
 */
export function readLogo(bytes: Uint8Array): { logo: QrLogo } | { problem: LogoProblem } {
  if (bytes.length > QR_LOGO_MAX_BYTES) return { problem: 'tooLarge' };
  if (hasPngSignature(bytes)) return readPng(Buffer.from(bytes));
  const text = isUtf8(bytes)
    ? Buffer.from(bytes)
        .toString('utf8')
        .replace(/^\uFEFF/, '')
    : null;
  if (text === null || !SVG_START.test(text)) return { problem: 'notImage' };
  const clean = sanitiseSvgLogo(text);
  return clean === null ? { problem: 'badSvg' } : { logo: { type: 'svg', bytes: Buffer.from(clean, 'utf8') } };
}

function readPng(bytes: Buffer): { logo: QrLogo } | { problem: LogoProblem } {
  const read = decodePng(bytes, { maxSide: PNG_MAX_SIDE, maxDecodedBytes: PNG_MAX_DECODED_BYTES });
  return 'problem' in read ? read : { logo: { type: 'png', bytes } };
}
