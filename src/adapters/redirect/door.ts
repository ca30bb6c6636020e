import type { IncomingMessage, ServerResponse } from 'node:http';
import { ALIAS_PATTERN } from '../../core/links/aliases.ts';
import {
  clientAddress,
  hostnameOf,
  requestHost,
  type ForwardedRequest,
  type TrustFunction,
} from '../shared/request/client-address.ts';
import { failedVisit } from '../shared/errors/error-handler.ts';
import { hasBody } from '../shared/request/lingering-close.ts';
import type { RedirectMeter } from '../metrics/redirect-meter.ts';
import { writeAnswer, type Answer } from './answer.ts';
import { markMalformed } from './malformed-request.ts';
import type { CachedLinks, RedirectContext } from './visit-context.ts';
import { visitAnswer, type VisitInput } from './visit-answer.ts';

/**
 * The redirect's door: node:http hands it every request before Fastify. A request with a body
 * (the password and consent posts among them) and a malformed one (malformed-request.ts) are
 * Fastify's; so is whatever `visit` leaves. True when the door took the request, and answers it
 * now or once a shared store has answered.
 */
export function visitDoor(visit: FastVisit, onError: (error: unknown) => void) {
  return function door(req: IncomingMessage, res: ServerResponse): boolean {
    if (hasBody(req) || markMalformed(req)) return false;
    let answer: Answer | Promise<Answer> | null;
    try {
      answer = visit(req);
    } catch (error) {
      fail(res, error);
      return true;
    }
    if (answer === null) return false;
    if (answer instanceof Promise)
      answer.then(
        (a) => writeAnswer(res, a),
        (error: unknown) => fail(res, error),
      );
    else writeAnswer(res, answer);
    return true;
  };

  function fail(res: ServerResponse, error: unknown): void {
    onError(error);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // What Fastify's error handler answers on any route.
    const failure = failedVisit(error);
    res.writeHead(failure.status, {
      ...failure.headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(failure.body)),
    });
    res.end(failure.body);
  }
}

export interface FastVisitOptions {
  links: CachedLinks;
  trust: TrustFunction | null;
  /** First path segments that are the app's own routes (/health, /docs, /api…), lower case. */
  appSegments: ReadonlySet<string>;
  /** False once the server is closing: Fastify then answers 503, as for every other route. */
  open(): boolean;
  /** Counts answers and times them while metrics are on (plain numbers, docs/design/observability.md); null: nothing counted. */
  meter?: RedirectMeter | null;
}

/** What the fast path reads of a request: the part of node:http's IncomingMessage it needs. */
export interface VisitHead extends ForwardedRequest {
  method?: string | undefined;
  url?: string | undefined;
}

/**
 * The answer to a visit the fast path takes, or null when it is Fastify's to serve (nothing
 * has happened then). Throws, or rejects, when the visit fails after it was taken.
 */
export type FastVisit = (req: VisitHead) => Answer | Promise<Answer> | null;

/**
 * A visit — GET or HEAD /{alias} of a cached link — answered before Fastify: routing, the
 * request and reply objects and their hooks would cost the redirect more than everything it
 * does itself (docs/design/visit.md). The answer is the route's own (visit-answer.ts: the
 * redirect, or the password, consent, disabled or expired page, with the cookies it reads and
 * sets); anything else returns null, and Fastify serves it.
 */
export function fastVisit(ctx: RedirectContext, options: FastVisitOptions): FastVisit {
  const { links, trust, appSegments } = options;
  const meter = options.meter ?? null;

  return function serve(req: VisitHead): Answer | Promise<Answer> | null {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return null;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const alias = q === -1 ? url.slice(1) : url.slice(1, q);
    // Percent-encoded or nested paths, and the app's own pages, are Fastify's to route.
    if (url.charCodeAt(0) !== 47 /* / */ || !ALIAS_PATTERN.test(alias) || appSegments.has(alias.toLowerCase()))
      return null;
    if (!options.open()) return null;
    const started = meter === null ? 0 : performance.now();
    const host = requestHost(req, trust);
    const link = links.peek(hostnameOf(host), alias);
    // Unknown or not cached: the route reads the database and renders the not-found page.
    if (!link) return null;

    const input: VisitInput = { method, url, ip: clientAddress(req, trust), headers: req.headers, host };
    if (meter === null) return visitAnswer(ctx, link, input);
    let answer: Answer | Promise<Answer>;
    try {
      answer = visitAnswer(ctx, link, input);
    } catch (error) {
      meter.answered(started, failedVisit(error).status);
      throw error;
    }
    if (!(answer instanceof Promise)) {
      meter.answered(started, answer.status);
      return answer;
    }
    return answer.then(
      (a) => {
        meter.answered(started, a.status);
        return a;
      },
      (error: unknown) => {
        meter.answered(started, failedVisit(error).status);
        throw error;
      },
    );
  };
}
