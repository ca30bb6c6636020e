import QRCode from 'qrcode';

/**
 * A small code (an otpauth:// URI) as an SVG data: URI for an <img>: black on white with its
 * quiet zone whatever the page's theme, as phone cameras read best.
 */
export async function qrSvgDataUri(text: string): Promise<string> {
  const svg = await QRCode.toString(text, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 4,
    color: { dark: '#000000', light: '#ffffff' },
  });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
