/**
 * A render thread's task (run by piscina, qr-renderer.ts): a QR code as PNG. Rasterising and
 * deflating the pixels grows with their count, so a large code would hold the event loop of the
 * thread it runs on; here it holds only this one.
 */
import QRCode from 'qrcode';
import { qrCodeOptions, type QrSettings } from './qr-options.ts';

export interface PngTask {
  text: string;
  settings: QrSettings;
}

export default function renderPng(task: PngTask): Promise<Uint8Array> {
  return QRCode.toBuffer(task.text, { ...qrCodeOptions(task.settings), type: 'png' });
}
