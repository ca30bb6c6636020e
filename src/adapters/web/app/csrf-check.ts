import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfTokenMatches, presentedToken } from './csrf.ts';
import { sendErrorPage } from './error-pages.ts';
import { csrfBinding } from './view.ts';

/**
 * The token check of a state-changing request, as a preValidation hook: the web app's own for
 * every form, and a multipart route's once it has read its body (where that form's token is).
 */
export function csrfCheck(secret: string) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const binding = csrfBinding(request, null);
    if (binding !== null && csrfTokenMatches(secret, binding, presentedToken(request))) return undefined;
    return sendErrorPage(request, reply, 'forbidden', secret);
  };
}

export function isMultipart(request: FastifyRequest): boolean {
  return request.headers['content-type']?.toLowerCase().startsWith('multipart/form-data') ?? false;
}
