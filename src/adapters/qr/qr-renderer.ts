import QRCode from 'qrcode';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import { ValidationError } from '../../core/shared/errors.ts';
import { effectiveEcc, isPlain, qrCodeOptions, type QrSettings } from './qr-options.ts';
import { drawSvg } from './qr-svg.ts';
import type { PngTask } from './qr-png-worker.ts';
import { BoundedPool } from '../shared/bounded-pool.ts';
import { threadEntry } from '../shared/thread-entry.ts';

export interface QrRendererOptions {
  /** Render threads at most (QR_THREADS); each starts with the first PNG it is needed for. */
  threads: number;
  /** PNGs waiting for a thread at most (QR_QUEUE_MAX); past it a request is refused (503). */
  queue: number;
  /** Bytes of PNGs kept for the next request of the same code (QR_CACHE_BYTES); 0: none. */
  cacheBytes: number;
}

/** The dependency a refused render names (UnavailableError): the render threads and their queue. */
export const QR_RENDERER = 'QR code renderer';

/** Why a PNG of a code with an SVG logo is refused (422 on `logo`). */
const SVG_LOGO_IN_PNG =
  'An SVG logo can be drawn only into an SVG code: ask for the SVG, leave the logo out, or upload the logo as PNG.';

/**
 * Every QR image linkpix draws (docs/design/qr.md). An SVG's cost does not
 * grow with its size (the size is only an attribute), so it is drawn here; a PNG's pixels,
 * whose cost grows with their count, are drawn and deflated in a render thread (piscina), never
 * on the event loop, with a bounded number waiting (shared/bounded-pool.ts: stopped when idle,
 * below the event loop's priority). PNGs are kept in an LRU bounded in bytes, keyed by every
 * setting that changes them; requests for a code being drawn share its render.
 */
export class QrRenderer {
  private readonly pool: BoundedPool<PngTask, Uint8Array>;
  private readonly cache: LRUCache<string, Buffer> | null;
  private readonly drawing = new Map<string, Promise<Buffer>>();

  constructor(options: QrRendererOptions) {
    const { threads, queue } = options;
    this.pool = new BoundedPool({
      entry: threadEntry('qr-png-worker', import.meta.url),
      threads,
      queue,
      dependency: QR_RENDERER,
    });
    this.cache =
      options.cacheBytes > 0
        ? new LRUCache<string, Buffer>({
            maxSize: options.cacheBytes,
            sizeCalculation: (png, key) => png.length + key.length,
          })
        : null;
  }

  svg(text: string, settings: QrSettings): Promise<string> {
    if (!isPlain(settings)) return Promise.resolve(drawSvg(text, settings));
    return QRCode.toString(text, { ...qrCodeOptions(settings), type: 'svg' });
  }

  /** The PNG, or an UnavailableError (503 with Retry-After) while every thread and queue place is taken. */
  png(text: string, settings: QrSettings): Promise<Buffer> {
    // Drawing an SVG into pixels safely needs a renderer of its own (docs/design/qr.md).
    if (settings.logo?.type === 'svg') return Promise.reject(ValidationError.of('logo', SVG_LOGO_IN_PNG));
    const logo = settings.logo ? createHash('sha256').update(settings.logo.bytes).digest('base64url') : null;
    const look = [
      settings.size,
      settings.margin,
      settings.foreground,
      settings.background,
      effectiveEcc(settings),
      settings.style ?? 'square',
      logo,
    ];
    const key = JSON.stringify(['png', text, ...look]);
    const kept = this.cache?.get(key);
    if (kept) return Promise.resolve(kept);
    const shared = this.drawing.get(key);
    if (shared) return shared;
    const drawn = this.pool
      .run({ text, settings: { ...settings } })
      .then((bytes) => {
        const png = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        this.cache?.set(key, png);
        return png;
      })
      .finally(() => {
        this.drawing.delete(key);
      });
    this.drawing.set(key, drawn);
    return drawn;
  }

  /** Stops the threads (after the server has answered its requests). */
  close(): Promise<void> {
    return this.pool.close();
  }
}
