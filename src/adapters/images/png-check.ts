import { PNG, type PNGWithMetadata } from 'pngjs';
import { decodedBytes, readPngHeader } from './png-header.ts';
import { inflatesWithinHeader } from './png-inflate.ts';

/** How large a PNG an upload may be: its longest side, and what its pixels take decoded (png-header.ts). */
export interface PngBounds {
  maxSide: number;
  maxDecodedBytes: number;
}

/** Why a PNG is refused: unreadable, too many pixels, or pixels too deep to hold. */
export type PngProblem = 'badPng' | 'pngTooBig' | 'pngTooDeep';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export const hasPngSignature = (bytes: Uint8Array): boolean => PNG_SIGNATURE.every((b, i) => bytes[i] === b);

/** The IEND chunk every whole PNG ends with: length 0, its type, its CRC. */
const PNG_END = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/**
 * A PNG decoded within its bounds, for every upload that takes one (a QR logo, a social card's
 * image). What the pixels take is known from the header, before a byte is inflated: a small file
 * can declare a huge image (it deflates well).
 */
export function decodePng(bytes: Buffer, bounds: PngBounds): { png: PNGWithMetadata } | { problem: PngProblem } {
  const header = readPngHeader(bytes);
  if (header === null) return { problem: 'badPng' };
  if (header.width > bounds.maxSide || header.height > bounds.maxSide) return { problem: 'pngTooBig' };
  if (decodedBytes(header) > bounds.maxDecodedBytes) return { problem: 'pngTooDeep' };
  // A file cut short is refused by its missing end, whatever the decoder makes of it (pngjs on
  // Node 24 decodes a truncated image data stream without an error).
  if (!bytes.subarray(-PNG_END.length).equals(PNG_END) || !inflatesWithinHeader(bytes, header))
    return { problem: 'badPng' };
  try {
    return { png: PNG.sync.read(bytes) };
  } catch {
    return { problem: 'badPng' };
  }
}
