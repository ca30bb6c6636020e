import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { TrustFunction } from '../shared/request/client-address.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A visitor's route (the redirect, its pages): no request id echoed, no log line (docs/design/observability.md).
     */
    visitor?: boolean;
  }
}

// Echoed in a response header and written in logs: printable ASCII only, and not a page of it.
const ACCEPTABLE_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * Fastify's genReqId: the X-Request-Id a trusted proxy sent (TRUST_PROXY, the same trust that
 * reads X-Forwarded-For), so one id follows a request through the proxy's logs and ours; else a
 * new UUID. From anyone else the header is ignored: a client must not choose what our logs say.
 */
export function requestIdOf(trust: TrustFunction | null): (req: IncomingMessage) => string {
  return (req) => {
    if (trust !== null && trust(req.socket.remoteAddress ?? '', 0)) {
      const sent = req.headers['x-request-id'];
      if (typeof sent === 'string' && ACCEPTABLE_ID.test(sent)) return sent;
    }
    return randomUUID();
  };
}

/** X-Request-Id on every answer of the API and the web app, so a report can name its log lines. */
export function echoRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.visitor !== true) void reply.header('x-request-id', request.id);
    done();
  });
}
