import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { LOGO_SVG, WORDMARK_SVG } from '../shared/html/brand.ts';
import { imageHeadersOnSend } from '../shared/request/image-headers.ts';
import { documentOperations } from './openapi-operations.ts';

/**
 * swagger-ui puts the logo's href on the image, not on the top bar's link: this points the link
 * at the app and names the image, once swagger-ui has drawn it.
 */
const TOP_BAR_LINK = `{
  const point = () => {
    const link = document.querySelector('#swagger-ui .topbar a.link');
    const img = link && link.querySelector('img');
    if (!img) return false;
    link.setAttribute('href', '/');
    img.setAttribute('alt', 'linkpix');
    return true;
  };
  const watch = new MutationObserver(() => point() && watch.disconnect());
  watch.observe(document.documentElement, { childList: true, subtree: true });
}`;

const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';

/**
 * swagger-ui's page has no viewport line, so a phone lays it out 980 px wide and shrinks the
 * text to a few pixels; its options reach no further into <head> than styles and icons.
 */
async function withViewport(_request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const type = String(reply.getHeader('content-type') ?? '');
  if (typeof payload !== 'string' || !type.startsWith('text/html') || payload.includes('name="viewport"'))
    return payload;
  return payload.replace(/<meta charset="UTF-8">/i, (charset) => `${charset}\n${VIEWPORT}`);
}

/**
 * The OpenAPI 3.1 document is generated from the same schemas that validate requests, so it
 * cannot drift from what the server accepts. Must be registered before the routes.
 */
export async function installOpenApi(app: FastifyInstance, appUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'linkpix API',
        version: '1',
        description: 'Short links and tracking pixels. phpShort-compatible: form or JSON bodies, Bearer API keys.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: appUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key from `linkpix keys create`' },
        },
      },
    },
    transformObject: (doc) =>
      'openapiObject' in doc ? documentOperations(optionalDefaultedQuery(doc.openapiObject)) : doc.swaggerObject,
  });
  // A scope of its own, so that the image headers reach swagger-ui's icons and no other route.
  await app.register(async (docs) => {
    docs.addHook('onSend', imageHeadersOnSend);
    docs.addHook('onSend', withViewport);
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      uiConfig: { docExpansion: 'list', deepLinking: true },
      // linkpix's name and mark instead of the framework's; the mark leads back to the app.
      logo: { type: 'image/svg+xml', content: WORDMARK_SVG, href: '/', target: '_self' },
      theme: {
        title: 'linkpix API',
        favicon: [{ filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: LOGO_SVG }],
        js: [{ filename: 'linkpix.js', content: TOP_BAR_LINK }],
      },
    });
  });
}

export function serveOpenApiDocument(app: FastifyInstance): void {
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

type Parameter = { in?: string; required?: boolean; schema?: { default?: unknown } };

/**
 * A query parameter the schema fills with its default (page, per_page, sort…) is one the client
 * may leave out; the validation schema lists it as required only so the handlers' types are exact.
 */
function optionalDefaultedQuery<T extends { paths?: object | undefined }>(doc: T): T {
  for (const item of Object.values(doc.paths ?? {}) as Record<string, unknown>[]) {
    for (const op of Object.values(item ?? {})) {
      const params = (op as { parameters?: Parameter[] }).parameters ?? [];
      for (const p of params) if (p.in === 'query' && p.schema?.default !== undefined) p.required = false;
    }
  }
  return doc;
}
