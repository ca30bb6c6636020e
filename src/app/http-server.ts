import Fastify, { type FastifyInstance, type FastifyServerFactoryHandler, type FastifyServerOptions } from 'fastify';
import type { Socket } from 'node:net';
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { LINK_LIMITS } from '../core/links/link-input.ts';
import type { TrustFunction } from '../adapters/shared/request/client-address.ts';
import { answerFrameworkError } from '../adapters/shared/errors/error-handler.ts';
import { strictValidatorFactory } from '../adapters/shared/input/strict-input.ts';
import { answerClientErrors } from '../adapters/shared/request/lingering-close.ts';
import { RequestLog } from '../adapters/http/request-log.ts';
import { requestIdOf } from '../adapters/http/request-id.ts';
import { sharedSerializerFactory } from '../adapters/http/shared-serializers.ts';
import { sharedValidatorFactory } from '../adapters/http/shared-validators.ts';

/** What the server is built with: the settings of the HTTP server itself, whatever routes it serves. */
export interface ServerSettings {
  logger: FastifyServerOptions['logger'];
  bodyLimit: number;
  /** How long a request's head and body may take to arrive (its head: this or 60 s, if less); 0: no limit. */
  requestTimeoutMs: number;
}

/**
 * A request node:http hands over before Fastify sees it: true when it was taken (the redirect's
 * door answers it: src/adapters/redirect/door.ts), false to leave it to Fastify.
 */
export type BeforeFastify = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * The Fastify instance every route is registered on, over a node:http server of its own, set up
 * as Fastify sets one up (its timeouts, defaults filled in). node:http parses every request
 * (docs/design/visit.md); `before` sees each one first.
 */
export function createFastify(
  settings: ServerSettings,
  trust: TrustFunction | null,
  before: BeforeFastify,
): FastifyInstance {
  const connections = new StopConnections();
  const app = Fastify({
    logger: settings.logger,
    bodyLimit: settings.bodyLimit,
    trustProxy: trust ?? false,
    requestTimeout: settings.requestTimeoutMs,
    clientErrorHandler: answerClientErrors(),
    // On close, idle keep-alive connections are closed at once (node:http's closeIdleConnections):
    // a proxy then retries the next request elsewhere instead of passing a 503 on.
    forceCloseConnections: 'idle',
    serverFactory: (handler, fastifyOptions) =>
      connections.watch(nodeHttpServer(handler, fastifyOptions, before, connections)),
    // Requests that arrive while the server closes get a 503 from the app's hook (http-app.ts), in
    // the contract's envelope: Fastify's own carries its body.
    return503OnClosing: false,
    // Every visitor route takes an alias as long as the contract allows (phpShort's limit);
    // Fastify's default of 100 answered longer ones with a 414 before any route.
    routerOptions: { maxParamLength: LINK_LIMITS.aliasMax },
    frameworkErrors: answerFrameworkError,
    // A line per request of the API and the web app; none per visit (request-log.ts).
    logController: new RequestLog(),
    genReqId: requestIdOf(trust),
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: true, useDefaults: true } },
    // Every route's params, query and body pass one strict reading of numbers and types before
    // Ajv's coercion (strict-input.ts): the API's and the web app's alike.
    schemaController: {
      compilersFactory: {
        buildValidator: strictValidatorFactory(sharedValidatorFactory),
        buildSerializer: sharedSerializerFactory,
      },
    },
  });
  app.addHook('preClose', (done) => {
    connections.stopping();
    done();
  });
  return app;
}

/** How often, during a stop, connections left idle are closed. */
const STOP_SWEEP_MS = 50;

/**
 * Connections that would hold a stop although no request is on them: node:http closes idle
 * keep-alive connections only when the stop begins, not one whose response ends after that (a live
 * stream the stop ended), and never a connection that has not sent a request yet (a client's spare
 * connection), which would wait out the head timeout. During a stop both are closed.
 */
class StopConnections {
  readonly #unserved = new Set<Socket>();
  #server: Server | null = null;

  watch(server: Server): Server {
    this.#server = server;
    server.on('connection', (socket: Socket) => {
      this.#unserved.add(socket);
      socket.once('close', () => this.#unserved.delete(socket));
    });
    return server;
  }

  /** A request arrived on the connection: node:http's own idle tracking covers it from now on. */
  served(socket: Socket): void {
    this.#unserved.delete(socket);
  }

  stopping(): void {
    const server = this.#server;
    // A server that never listened has no connections and never emits 'close'.
    if (server === null || !server.listening) return;
    const sweep = setInterval(() => {
      server.closeIdleConnections();
      for (const socket of this.#unserved) socket.destroy();
    }, STOP_SWEEP_MS);
    // The closing server holds the process while connections remain; the sweep never should.
    sweep.unref();
    server.once('close', () => clearInterval(sweep));
  }
}

/** node:http with `before` in front of Fastify's own handler. */
function nodeHttpServer(
  handler: FastifyServerFactoryHandler,
  fastifyOptions: Record<string, unknown>,
  before: BeforeFastify,
  connections: StopConnections,
): Server {
  // Fastify hands its own options in; their declared type is too loose to read numbers from.
  const opts = fastifyOptions as {
    http?: ServerOptions | null;
    keepAliveTimeout?: number;
    requestTimeout?: number;
    connectionTimeout?: number;
  };
  const timeout = opts.requestTimeout ?? 0;
  const server = createServer(
    {
      ...opts.http,
      requestTimeout: timeout,
      headersTimeout: Math.min(60_000, timeout),
      // node:http looks for requests past their time this often: a fraction of the timeout, so
      // that a slow request is cut off near its time rather than up to 30 s (Node's default) later.
      connectionsCheckingInterval: timeout > 0 ? Math.min(1000, Math.ceil(timeout / 4)) : 30_000,
    },
    (req, res) => {
      connections.served(req.socket);
      if (!before(req, res)) handler(req, res);
    },
  );
  server.keepAliveTimeout = opts.keepAliveTimeout ?? 72_000;
  // Idle connections close after keepAliveTimeout and slow requests after requestTimeout:
  // no timeout of the socket's own beyond those.
  server.setTimeout(opts.connectionTimeout ?? 0);
  return server;
}
