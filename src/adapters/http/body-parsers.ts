import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import qs from 'qs';

/** Bracket lists (`country[0][key]=US`, `pixels[]=3`) as phpShort clients send them. */
function parseForm(body: string): Record<string, unknown> {
  return qs.parse(body, { arrayLimit: 300, parameterLimit: 2000, depth: 4, allowPrototypes: false });
}

function badRequest(message: string) {
  return Object.assign(new Error(message), { statusCode: 400 });
}

/**
 * Form and JSON bodies only: anything else on a write is a 415 (Fastify's default for an
 * unknown type), so text/plain's built-in parser goes.
 *
 * JSON goes through Fastify's own parser (secure-json-parse), refusing `__proto__` and
 * `constructor.prototype` keys as invalid JSON: no phpShort client sends them, so a body that
 * does is crafted, and refusing it whole is safer than acting on the rest (docs/architecture.md).
 * Around it, two answers of the contract's: bytes that are not UTF-8 are a 400 (decoding would
 * turn them into U+FFFD silently), and an empty body is no fields.
 */
export async function installBodyParsers(app: FastifyInstance): Promise<void> {
  app.removeContentTypeParser('text/plain');
  await app.register(formbody, { parser: parseForm });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
    if (!isUtf8(body)) return done(badRequest('Malformed UTF-8'), undefined);
    const text = body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    // Fastify's default parser answers through `done` and returns nothing; its type allows a promise.
    void parseJson(req, text, done);
  });
}
