import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import qs from 'qs';

/** Bracket lists (`country[0][key]=US`, `pixels[]=3`) as phpShort clients send them. */
export function parseForm(body: string): Record<string, unknown> {
  return qs.parse(body, { arrayLimit: 300, parameterLimit: 2000, depth: 4, allowPrototypes: false });
}

function badRequest(message: string) {
  return Object.assign(new Error(message), { statusCode: 400 });
}

/**
 * Form and JSON bodies only: anything else on a write is a 415 (Fastify's default for an
 * unknown type), so text/plain's built-in parser goes.
 */
export async function installBodyParsers(app: FastifyInstance): Promise<void> {
  app.removeContentTypeParser('text/plain');
  await app.register(formbody, { parser: parseForm });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body: Buffer, done) => {
    if (!isUtf8(body)) return done(badRequest('Malformed UTF-8'), undefined);
    const text = body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value)));
    } catch {
      done(Object.assign(new Error('Invalid JSON'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' }), undefined);
    }
  });
}
