import type { FastifyRequest } from 'fastify';
import { NotFoundError } from '../../../../core/shared/errors.ts';

/** With attachValidation a bad id is attached, not thrown: it names no link of the viewer's. */
export function refuseBadParams(request: FastifyRequest): void {
  const failure = request.validationError as (Error & { validationContext?: string }) | undefined;
  if (failure?.validationContext === 'params') throw new NotFoundError('link');
}
