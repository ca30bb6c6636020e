import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One JSON line per request of the API and the web app when it is answered, with its request id
 * (reqId), method, route pattern, status and time. Not the raw URL: a query string may hold what
 * a log should not. Visitors' routes log nothing per request: a line per visit cost the redirect
 * a third of its speed (docs/design/observability.md), and the fast path has no request object to log anyway.
 */
export class RequestLog extends LogController {
  constructor() {
    super({ disableRequestLogging: (request) => request.routeOptions.config.visitor === true });
  }

  /** Said once, when answered: a line as the request comes in would double the log for nothing. */
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      method: request.method,
      route: request.routeOptions.url ?? null,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
