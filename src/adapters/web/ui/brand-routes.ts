import type { FastifyInstance } from 'fastify';
import { BRAND_COLOUR, LOGO_SVG, faviconIco } from '../../shared/html/brand.ts';
import { sendImage } from '../../shared/request/image-headers.ts';

export const FAVICON_SVG_PATH = '/favicon.svg';
export const MANIFEST_PATH = '/manifest.webmanifest';

const DAY = 'public, max-age=86400';

/** What installs or bookmarks the app: its name, its icons and its colours. */
function manifest(name: string): string {
  return JSON.stringify({
    name,
    short_name: name,
    start_url: '/',
    display: 'standalone',
    background_color: '#f7f7f8',
    theme_color: BRAND_COLOUR,
    icons: [
      { src: FAVICON_SVG_PATH, sizes: 'any', type: 'image/svg+xml' },
      { src: '/favicon.ico', sizes: '32x32', type: 'image/x-icon' },
    ],
  });
}

/** /favicon.ico, /favicon.svg and /manifest.webmanifest, made once at start; on every host. */
export function serveBrand(app: FastifyInstance, name: string): void {
  const ico = faviconIco();
  const webManifest = manifest(name);
  const hide = { schema: { hide: true } };
  app.get('/favicon.ico', hide, (_request, reply) =>
    sendImage(reply.header('cache-control', DAY), 'image/x-icon', ico),
  );
  app.get(FAVICON_SVG_PATH, hide, (_request, reply) =>
    sendImage(reply.header('cache-control', DAY), 'image/svg+xml', LOGO_SVG),
  );
  app.get(MANIFEST_PATH, hide, (_request, reply) =>
    reply
      .header('content-type', 'application/manifest+json; charset=utf-8')
      .header('cache-control', DAY)
      .send(webManifest),
  );
}
