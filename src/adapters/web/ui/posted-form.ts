import type { FastifyRequest } from 'fastify';
import { normalizeBody } from '../../shared/input/normalize-input.ts';

/** A form as the browser sent it: strings and bracket lists (`pixels[]`), before any coercion. */
export type PostedForm = Record<string, unknown>;

const posted = new WeakMap<FastifyRequest, PostedForm>();

/**
 * A route's preValidation hook: keeps a copy of the form as typed (validation coerces and drops
 * fields in place, and a failed submit must show what was typed), then folds the body as the API
 * does before its schema runs (blank fields are "none", `domain_id` is `domain`…).
 */
export async function keepPostedForm(request: FastifyRequest): Promise<void> {
  const body = request.body && typeof request.body === 'object' ? (request.body as PostedForm) : {};
  posted.set(request, structuredClone(body));
  request.body = normalizeBody(body);
}

/** The form as typed (empty when the route has no keepPostedForm hook or no body). */
export function postedForm(request: FastifyRequest): PostedForm {
  return posted.get(request) ?? {};
}

/** A field as text for a control's value ('' when absent or not text). */
export function textOf(form: PostedForm, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** A list field (`pixels[]` arrives as `pixels`) as text values. */
export function listOf(form: PostedForm, name: string): string[] {
  const value = form[name];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' && value !== '' ? [value] : [];
}
