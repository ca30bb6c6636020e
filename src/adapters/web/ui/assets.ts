import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The app's stylesheet and script (each joined from the files of that kind), read once at start, named by their content's hash (so a
 * page can let browsers keep them for a year) and compressed once. Real files beside this
 * module (`npm run build` copies them into dist/).
 */
interface Asset {
  path: string;
  type: string;
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
}

const DIR = new URL('./assets/', import.meta.url);

function asset(name: string, ext: string, type: string, body: Buffer): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return {
    path: `/assets/${name}.${hash}.${ext}`,
    type,
    body,
    br: brotliCompressSync(body),
    gzip: gzipSync(body, { level: 9 }),
  };
}

/** Every file of one kind, app.{ext} first, joined: one request a page, one file a feature. */
function joined(ext: string): Buffer {
  const main = `app.${ext}`;
  const files = readdirSync(DIR)
    .filter((f) => f.endsWith(`.${ext}`))
    .sort((a, b) => (a === main ? -1 : b === main ? 1 : a.localeCompare(b)));
  // A newline between files keeps one file's last line comment from swallowing the next file.
  return Buffer.concat(files.flatMap((f) => [readFileSync(new URL(f, DIR)), Buffer.from('\n')]));
}

function load(): { css: Asset; js: Asset } {
  // app.css first: the files after it (charts.css…) build on its custom properties; app.js
  // first likewise, and each other script keeps to its own block scope.
  return {
    css: asset('app', 'css', 'text/css; charset=utf-8', joined('css')),
    js: asset('app', 'js', 'text/javascript; charset=utf-8', joined('js')),
  };
}

export const ASSETS = load();

function send(request: FastifyRequest, reply: FastifyReply, a: Asset) {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  reply
    .header('content-type', a.type)
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('vary', 'accept-encoding');
  reply.header('x-content-type-options', 'nosniff');
  if (/\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(a.br);
  if (/\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(a.gzip);
  return reply.send(a.body);
}

export function serveAssets(app: FastifyInstance): void {
  for (const a of [ASSETS.css, ASSETS.js])
    app.get(a.path, { schema: { hide: true } }, (request, reply) => send(request, reply, a));
}
