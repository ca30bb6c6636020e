/** A PNG's header (IHDR, the first chunk): what decoding it will cost, read before decoding. */
export interface PngHeader {
  width: number;
  height: number;
  /** Bits per sample: 1, 2, 4, 8 or 16. */
  bitDepth: number;
  /** Samples per pixel, by colour type: grey 1, RGB 3, palette 1, grey and alpha 2, RGBA 4. */
  channels: number;
  interlaced: boolean;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** The bit depths the PNG specification allows for each colour type. */
const DEPTHS: Record<number, readonly number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

const IHDR = Buffer.from('IHDR', 'latin1');

/**
 * The header of a PNG whose signature was checked, or null when its first chunk is no valid
 * IHDR (13 bytes: width, height, bit depth, colour type, compression, filter, interlace).
 */
export function readPngHeader(bytes: Buffer): PngHeader | null {
  if (bytes.length < 33 || bytes.readUInt32BE(8) !== 13 || !bytes.subarray(12, 16).equals(IHDR)) return null;
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const bitDepth = bytes.readUInt8(24);
  const colourType = bytes.readUInt8(25);
  const interlace = bytes.readUInt8(28);
  const channels = CHANNELS[colourType];
  if (width === 0 || height === 0 || channels === undefined || !DEPTHS[colourType]?.includes(bitDepth)) return null;
  // Compression and filter method 0 are the only ones defined; interlace is none (0) or Adam7 (1).
  if (bytes.readUInt8(26) !== 0 || bytes.readUInt8(27) !== 0 || interlace > 1) return null;
  return { width, height, bitDepth, channels, interlaced: interlace === 1 };
}

/**
 * The bytes a decoder holds for the pixels: width × height × channels × bytes per sample, a
 * sample below 8 bits counted as the byte it is unpacked into. docs/design/images.md.
 */
export function decodedBytes(header: PngHeader): number {
  return header.width * header.height * header.channels * (header.bitDepth === 16 ? 2 : 1);
}
