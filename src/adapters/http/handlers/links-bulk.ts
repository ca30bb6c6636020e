import type { FastifyRequest } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import type { BulkChange, BulkTarget } from '../../../core/links/link-bulk.ts';
import type { LinkInput } from '../../../core/links/link-input.ts';
import { ValidationError, type FieldErrors } from '../../../core/shared/errors.ts';
import { messages } from '../../../core/shared/messages.ts';
import { normalizeBody, normalizeQuery } from '../../shared/input/normalize-input.ts';
import { linkRecord } from '../../shared/presenters/link-record.ts';
import type { LinkBulkDeleteBody, LinkBulkFilter, LinkBulkUpdateBody } from '../schemas/link-bulk.ts';
import { fieldErrorsOf } from '../../shared/input/validation-errors.ts';
import type { ApiContext } from './context.ts';
import { faultsWithRules } from '../../shared/input/refuse-invalid-body.ts';
import { apiActor } from '../audit-actor.ts';

type ItemAnswer = { status: 201; data: ReturnType<typeof linkRecord> } | { status: 422; message: FieldErrors };

/** Each link of a bulk create gets the single create's normalizing (aliases, blanks as null). */
export async function normalizeBulkBody(request: FastifyRequest): Promise<void> {
  const body = (request.body ?? {}) as Record<string, unknown>;
  // The API's coercion would read a lone value as a list of one: a bulk create names its list.
  if (body.links !== undefined && !Array.isArray(body.links))
    throw ValidationError.of('links', messages.array('links'));
  if (Array.isArray(body.links)) body.links = body.links.map(normalizeBody);
  if (body.filter !== undefined && body.filter !== null) body.filter = normalizeQuery(body.filter);
  request.body = body;
}

const ITEM_PATH = /^\/links\/(\d+)(?=\/|$)/;

/**
 * The schema validated every link at once; its findings are split by link here, so one bad
 * link refuses that link alone. Findings outside any one link (too many, not a list) refuse all.
 */
function findingsByLink(request: FastifyRequest): Map<number, FastifySchemaValidationError[]> {
  const byLink = new Map<number, FastifySchemaValidationError[]>();
  const failure = request.validationError as (Error & { validationContext?: string; validation?: unknown }) | undefined;
  if (!failure) return byLink;
  if (failure.validationContext !== 'body' || !Array.isArray(failure.validation)) throw failure;
  const whole: FastifySchemaValidationError[] = [];
  for (const e of failure.validation as FastifySchemaValidationError[]) {
    const m = ITEM_PATH.exec(e.instancePath);
    if (!m) whole.push(e);
    else {
      const index = Number(m[1]);
      const list = byLink.get(index) ?? [];
      list.push({ ...e, instancePath: e.instancePath.slice(m[0].length) });
      byLink.set(index, list);
    }
  }
  if (whole.length > 0) throw new ValidationError(fieldErrorsOf(whole));
  return byLink;
}

function targetOf(body: LinkBulkDeleteBody): BulkTarget {
  if (body.ids !== undefined && body.filter !== undefined)
    throw ValidationError.of('ids', 'Send either ids or filter, not both.');
  if (body.ids !== undefined) return { ids: body.ids };
  if (body.filter !== undefined) return { filter: filterOf(body.filter) };
  throw ValidationError.of('ids', 'The ids field is required when filter is not present.');
}

export function filterOf(f: LinkBulkFilter) {
  return {
    search: f.search,
    by: f.by,
    status: f.status,
    spaceId: f.space,
    domainId: f.domain,
    pixelId: f.pixel,
    tag: f.tag,
    sort: 'asc' as const,
  };
}

function changeOf(body: LinkBulkUpdateBody): BulkChange {
  switch (body.action) {
    case 'move':
      if (body.space === undefined) throw ValidationError.of('space', messages.requiredWith('space', 'action'));
      return { kind: 'move', spaceId: body.space };
    case 'set_pixels':
      if (body.pixels === undefined || body.pixels.length === 0)
        throw ValidationError.of('pixels', messages.requiredWith('pixels', 'action'));
      return { kind: 'pixels', pixelIds: body.pixels };
    case 'clear_pixels':
      return { kind: 'pixels', pixelIds: [] };
    default:
      return { kind: body.action };
  }
}

/** Runs both, so that a 422 names the bad fields of each at once. */
function both<A, B>(a: () => A, b: () => B): [A, B] {
  const faults: FieldErrors = {};
  const run = <T>(f: () => T): T | undefined => {
    try {
      return f();
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      Object.assign(faults, error.fields);
      return undefined;
    }
  };
  const x = run(a);
  const y = run(b);
  if (Object.keys(faults).length > 0) throw new ValidationError(faults);
  return [x as A, y as B];
}

/** POST, PATCH and DELETE /api/v1/links/bulk (api.md §12): the web app's bulk rules, through LinksService. */
export function linkBulkHandlers(ctx: ApiContext) {
  return {
    create: async (request: FastifyRequest) => {
      const findings = findingsByLink(request);
      const { account } = request;
      const links = (request.body as { links: LinkInput[] }).links;
      const data: ItemAnswer[] = [];
      // One at a time, in order: two links of one request asking for one alias get it first come.
      for (const [index, input] of links.entries()) {
        const faultsOf = (rest: LinkInput) => ctx.links.faultsOf(account.id, account.timezone, rest);
        const faults = await faultsWithRules(findings.get(index) ?? [], input, faultsOf);
        if (faults) {
          data.push({ status: 422, message: faults });
          continue;
        }
        try {
          data.push({
            status: 201,
            data: linkRecord(await ctx.links.create(account.id, account.timezone, input, apiActor(request)), ctx.urls),
          });
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          data.push({ status: 422, message: error.fields });
        }
      }
      return { data, status: 200 as const };
    },
    update: async (request: FastifyRequest<{ Body: LinkBulkUpdateBody }>) => {
      const body = request.body;
      const [change, target] = both(
        () => changeOf(body),
        () => targetOf(body),
      );
      const count = await ctx.links.bulk(request.account.id, change, target, apiActor(request));
      return { data: { count }, status: 200 as const };
    },
    remove: async (request: FastifyRequest<{ Body: LinkBulkDeleteBody }>) => {
      const count = await ctx.links.bulk(
        request.account.id,
        { kind: 'delete' },
        targetOf(request.body),
        apiActor(request),
      );
      return { data: { count }, status: 200 as const };
    },
  };
}
