import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError, ValidationError } from '../../core/shared/errors.ts';
import type { ConversionService } from '../../core/conversions/conversion-service.ts';
import { sendImage } from '../shared/request/image-headers.ts';

// The smallest transparent 1×1 GIF.
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

type PixelRequest = FastifyRequest<{
  Params: { click: string };
  Querystring: Record<string, string | string[] | undefined>;
}>;

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * GET /c/{click_id}.gif?name=…[&value=&currency=] (docs/design/rules.md): a conversion for a site without
 * a server of its own. It answers the same GIF whatever happened, never cached, so a page shows
 * nothing and learns nothing; HEAD records nothing. The click id's MAC is the only credential.
 *
 * `c` stays a valid alias: its link answers at /c and /c/+, and the parameter's pattern (a click
 * id, then .gif) never matches `+`.
 */
export function registerConversionPixel(app: FastifyInstance, ctx: { conversions: ConversionService }): void {
  app.get(
    '/c/:click(^[A-Za-z0-9_-]{1,64}).gif',
    { schema: { hide: true }, config: { visitor: true } },
    async (request: PixelRequest, reply: FastifyReply) => {
      if (request.method === 'GET') {
        const q = request.query;
        try {
          await ctx.conversions.record(null, {
            click_id: request.params.click,
            name: first(q.name),
            value: first(q.value),
            currency: first(q.currency),
          });
        } catch (error) {
          if (!(error instanceof ValidationError || error instanceof NotFoundError))
            request.log.warn({ err: error }, 'a conversion pixel was not recorded');
        }
      }
      return sendImage(reply.code(200).header('cache-control', 'no-store, max-age=0'), 'image/gif', GIF);
    },
  );
}
