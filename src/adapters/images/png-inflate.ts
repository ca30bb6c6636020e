import { inflateSync } from 'node:zlib';
import type { PngHeader } from './png-header.ts';

// Adam7's seven passes: where each starts and how far apart its pixels are (x, y, step x, step y).
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** Bytes of `count` rows of `width` pixels, each row a filter byte and its samples packed. */
function rows(header: PngHeader, width: number, count: number): number {
  if (width === 0 || count === 0) return 0;
  return count * (1 + Math.ceil((width * header.channels * header.bitDepth) / 8));
}

/** What the image data of a whole PNG inflates to: its filtered rows, pass by pass when interlaced. */
export function inflatedBytes(header: PngHeader): number {
  if (!header.interlaced) return rows(header, header.width, header.height);
  let total = 0;
  for (const [x, y, dx, dy] of ADAM7)
    total += rows(
      header,
      Math.ceil(Math.max(0, header.width - x) / dx),
      Math.ceil(Math.max(0, header.height - y) / dy),
    );
  return total;
}

/** The IDAT chunks' data, joined: the one zlib stream of the image (chunk lengths not trusted past the file's end). */
function imageData(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at + 8 <= bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const end = Math.min(bytes.length, at + 8 + length);
    if (bytes.toString('latin1', at + 4, at + 8) === 'IDAT') parts.push(bytes.subarray(at + 8, end));
    at = end + 4;
  }
  return Buffer.concat(parts);
}

/**
 * Whether the image data inflates to no more than its header says. pngjs bounds its inflate
 * for a plain PNG but not for an interlaced one, where 100 KB of deflate could inflate to a
 * hundred megabytes first: such a stream is inflated here with that bound, and refused.
 */
export function inflatesWithinHeader(bytes: Buffer, header: PngHeader): boolean {
  if (!header.interlaced) return true;
  try {
    inflateSync(imageData(bytes), { maxOutputLength: Math.max(1, inflatedBytes(header)) });
    return true;
  } catch {
    return false;
  }
}
