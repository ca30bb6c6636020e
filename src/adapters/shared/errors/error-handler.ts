import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ForbiddenError,
  GoneError,
  NotFoundError,
  TooManyAttemptsError,
  UnauthenticatedError,
  UnavailableError,
  ValidationError,
} from '../../../core/shared/errors.ts';
import { fieldErrorsOf } from '../input/validation-errors.ts';

const STATUS_MESSAGES: Record<number, string> = {
  400: 'Bad Request.',
  401: 'Unauthenticated.',
  403: 'Forbidden.',
  404: 'Resource not found.',
  405: 'Method Not Allowed.',
  406: 'Not Acceptable.',
  408: 'Request Timeout.',
  410: 'Gone.',
  413: 'Payload Too Large.',
  414: 'URI Too Long.',
  415: 'Unsupported Media Type.',
  429: 'Too Many Attempts.',
  431: 'Request Header Fields Too Large.',
  503: 'Service Unavailable.',
};

// What a client should wait before trying again while a dependency is away: long enough not to
// hammer it, short enough that a restart of the database goes unnoticed.
const RETRY_AFTER_SECONDS = 5;

function unavailableMessage(error: UnavailableError): string {
  return `The ${error.dependency} is unavailable; please try again shortly.`;
}

export function errorEnvelope(status: number, message?: string) {
  return { message: message ?? STATUS_MESSAGES[status] ?? (status >= 500 ? 'Server Error' : 'Bad Request.'), status };
}

/** An answer written without Fastify (the redirect's fast path), for a visit that failed. */
export interface FailedVisit {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const SERVER_ERROR: FailedVisit = { status: 500, headers: {}, body: JSON.stringify(errorEnvelope(500)) };

/** What the error handler below would answer for a visit's failure, for the paths before Fastify. */
export function failedVisit(error: unknown): FailedVisit {
  if (!(error instanceof UnavailableError)) return SERVER_ERROR;
  return {
    status: 503,
    headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
    body: JSON.stringify(errorEnvelope(503, unavailableMessage(error))),
  };
}

/**
 * The router's own refusals, which Fastify answers before any route, hook or error handler
 * (its `frameworkErrors` option): a path that cannot be decoded (400), a segment longer than
 * the router takes (414). Left to Fastify they carry its own body, echoing the path.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status =
    error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  void reply.code(status).send(errorEnvelope(status));
}

/** The only place where core errors and framework errors become HTTP answers. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ValidationError) return reply.code(422).send({ message: error.fields, status: 422 });
    if (error instanceof NotFoundError) return reply.code(404).send(errorEnvelope(404));
    if (error instanceof UnauthenticatedError) return reply.code(401).send(errorEnvelope(401));
    if (error instanceof ForbiddenError) return reply.code(403).send(errorEnvelope(403, error.missing));
    if (error instanceof GoneError)
      return reply.code(410).send(errorEnvelope(410, `The ${error.resource} was used, revoked or has expired.`));
    if (error instanceof TooManyAttemptsError)
      return reply
        .code(429)
        .header('retry-after', String(error.retryAfterSeconds))
        .send(errorEnvelope(429, error.reason));
    // Not logged per request: the adapter that lost its dependency logs the outage once, and its end.
    if (error instanceof UnavailableError) {
      return reply
        .code(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send(errorEnvelope(503, unavailableMessage(error)));
    }
    // A malformed id names no record: the same answer as an unknown one.
    if (error.validation && error.validationContext === 'params') return reply.code(404).send(errorEnvelope(404));
    if (error.validation) {
      return reply.code(422).send({ message: fieldErrorsOf(error.validation), status: 422 });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Framework messages (bad JSON, too large…) are safe to echo only in the generic form.
      const detail =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'The request body is not valid JSON.'
          : undefined;
      return reply.code(status).send(errorEnvelope(status, detail));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorEnvelope(500));
  });
}
