import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { BulkChange, BulkTarget } from '../../../../core/links/link-bulk.ts';
import { ValidationError, type FieldErrors } from '../../../../core/shared/errors.ts';
import { messages } from '../../../../core/shared/messages.ts';
import { Enum, Id, Nullable } from '../../../shared/schemas/common.ts';
import { WebLinkListQuery } from '../../../shared/schemas/link.ts';
import { normalizeBody, normalizeQuery } from '../../../shared/input/normalize-input.ts';
import { fieldErrorsOf } from '../../../shared/input/validation-errors.ts';
import { seeOther } from '../../app/respond.ts';
import { setFlash, viewerOf, type View } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import { BULK_ACTIONS, type BulkActionName, type BulkScope, type BulkValues } from './link-bulk-view.ts';
import { sendLinksCsv } from './link-export.ts';
import { DEFAULT_QUERY, filterOf, listQueryOf, listUrl, type ListQuery } from './link-list-query.ts';
import { webActor } from '../../app/audit-actor.ts';

/** POST /links/bulk-action: `filter` carries the list's query (its names) for scope=matching and the way back. */
export const BulkActionBody = Type.Object({
  action: Enum(BULK_ACTIONS),
  scope: Enum(['selected', 'matching'] as const, { default: 'selected' }),
  ids: Type.Optional(Type.Array(Id(), { maxItems: 500 })),
  space: Type.Optional(Nullable(Id('The space to move to; blank: no space'))),
  confirm: Type.Optional(Nullable(Type.String({ maxLength: 8 }))),
  filter: Type.Optional(WebLinkListQuery),
});
export type BulkActionBody = Static<typeof BulkActionBody>;

/** Blank fields as the API reads them ('' → null: "no space"); blank filters as not sent. */
export async function normalizeBulkBody(request: FastifyRequest): Promise<void> {
  const body = normalizeBody(request.body) as Record<string, unknown>;
  if (body.filter !== undefined && body.filter !== null) body.filter = normalizeQuery(body.filter);
  else delete body.filter;
  request.body = body;
}

/** What the list page needs to show the form again after a refusal. */
export interface Refusal {
  query: ListQuery;
  values: BulkValues;
  errors: FieldErrors;
}

export interface BulkPages {
  refuse(refusal: Refusal): Promise<FastifyReply>;
  confirm(query: ListQuery, scope: BulkScope, ids: readonly number[], count: number): FastifyReply;
  view(): View;
}

const integers = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((v): v is number => Number.isInteger(v)) : [];

function changeOf(action: Exclude<BulkActionName, 'export'>, space: number | null | undefined): BulkChange {
  return action === 'move' ? { kind: 'move', spaceId: space ?? null } : { kind: action };
}

/**
 * One bulk action: export answers the CSV; delete asks first (confirm=1 posts it again);
 * the others change the links through LinksService.bulk, then 303 back to the same list.
 */
export async function runBulkAction(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  pages: BulkPages,
): Promise<FastifyReply> {
  const accountId = viewerOf(request).workspace.id;
  const body = (request.body ?? {}) as Partial<BulkActionBody>;
  const failure = request.validationError as (Error & { validation?: unknown }) | undefined;
  const errors: FieldErrors = failure && Array.isArray(failure.validation) ? fieldErrorsOf(failure.validation) : {};
  const filterRefused = Object.keys(errors).some((f) => f.startsWith('filter'));
  // A refused filter is never read: the list shows its defaults instead.
  const query = filterRefused ? DEFAULT_QUERY : listQueryOf(body.filter);
  const scope: BulkScope = body.scope === 'matching' ? 'matching' : 'selected';
  const ids = [...new Set(integers(body.ids))];
  const action = errors.action ? undefined : body.action;
  // The form's "Choose an action" sends a blank (null after normalizing, '' after Ajv's coercion).
  const sent: unknown = body.action;
  if (sent === undefined || sent === null || sent === '') errors.action = [messages.required('action')];
  const space = errors.space || typeof body.space === 'string' ? undefined : body.space;
  if (action === 'move' && body.space === undefined) errors.space = [messages.required('space')];
  if (scope === 'selected' && ids.length === 0 && !errors.ids)
    errors.ids = [pages.view().t.links.list.bulk.noneSelected];
  const values: BulkValues = { action, space, scope, ids };
  if (Object.keys(errors).length > 0 || action === undefined) return pages.refuse({ query, values, errors });

  const target: BulkTarget = scope === 'matching' ? { filter: filterOf(query) } : { ids };
  if (action === 'export') return sendLinksCsv(reply, ctx.links, accountId, target, ctx.urls);
  if (action === 'delete' && body.confirm !== '1') {
    const count = await ctx.links.countTargeted(accountId, target);
    if (count > 0) return pages.confirm(query, scope, ids, count);
  }
  let changed: number;
  try {
    changed = await ctx.links.bulk(accountId, changeOf(action, space), target, webActor(request));
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return pages.refuse({ query, values, errors: error.fields });
  }
  const view = pages.view();
  setFlash(reply, view.t.links.list.bulk.done[action](changed, view.fmt.number(changed)));
  return seeOther(reply, listUrl(query));
}
