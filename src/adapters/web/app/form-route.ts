import type { FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** What a form route's reader kept, for that route's handler; null elsewhere. Only formRoute touches it. */
    formState: unknown;
  }
}

/**
 * Reads a form before validation: keeps what the handler needs as typed (validation coerces and
 * drops fields in place, and a failed submit must show what was typed) and may replace
 * `request.body` with what the schema should judge.
 */
export type FormReader<S> = (request: FastifyRequest) => Promise<S> | S;

/** A form route's handler, given what its reader kept. */
export type FormHandler<S> = (request: FastifyRequest, reply: FastifyReply, form: S) => Promise<unknown>;

/**
 * A form route's preValidation hook and handler as one pair: what `read` returns is `handle`'s
 * third argument, so the form's state travels with its own request from the one to the other
 * (docs/design/web.md, "Forms").
 */
export function formRoute<S>(read: FormReader<S>, handle: FormHandler<S>) {
  return {
    preValidation: async (request: FastifyRequest): Promise<void> => {
      request.formState = await read(request);
    },
    // The hook above ran first: Fastify calls a route's handler only after its preValidation.
    handler: async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> =>
      handle(request, reply, request.formState as S),
  };
}
