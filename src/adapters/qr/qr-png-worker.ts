/**
 * A render thread's task (run by piscina, qr-renderer.ts): a QR code as PNG. Rasterising and
 * deflating the pixels grows with their count, so a large code would hold the event loop of the
 * thread it runs on; here it holds only this one.
 */
import QRCode from 'qrcode';
import { isPlain, qrCodeOptions, type QrSettings } from './qr-options.ts';
import { drawPng } from './qr-raster.ts';

export interface PngTask {
  text: string;
  settings: QrSettings;
}

export default async function renderPng(task: PngTask): Promise<Uint8Array> {
  if (!isPlain(task.settings)) return drawPng(task.text, task.settings);
  return QRCode.toBuffer(task.text, { ...qrCodeOptions(task.settings), type: 'png' });
}
