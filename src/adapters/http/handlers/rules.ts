import type { FastifyRequest } from 'fastify';
import { SEEN_COOKIE } from '../../../core/rules/rule-cookie.ts';
import { parseAddress } from '../../../core/rules/ip-range.ts';
import { FieldErrorBag } from '../../../core/shared/errors.ts';
import { messages } from '../../../core/shared/messages.ts';
import type { ExplainAnswer } from '../../../core/rules/explain-service.ts';
import type { PreviewAnswer } from '../../../core/rules/rule-preview.ts';
import { one } from '../envelopes.ts';
import type { IdParams } from '../../shared/schemas/common.ts';
import type { ExplainQuery, PreviewBody } from '../schemas/rules.ts';
import { visitorFrom } from '../../ua/visitor-from-request.ts';
import type { ApiContext } from './context.ts';

type Req<T extends { Params?: unknown; Querystring?: unknown; Body?: unknown }> = FastifyRequest<T>;

/** Explain and preview (docs/api.md §18): a link's rules asked about, nothing recorded. */
export function ruleHandlers(ctx: ApiContext) {
  return {
    explain: async (request: Req<{ Params: IdParams; Querystring: ExplainQuery }>) => {
      const probe = probeOf(ctx, request.query);
      return one(explainRecord(await ctx.rules.explainer.explain(request.account.id, request.params.id, probe)));
    },
    preview: async (request: Req<{ Params: IdParams; Body: PreviewBody }>) => {
      // One preview at a time per person, whichever key or web session asks (docs/api.md §18).
      const caller = `person:${request.actor.userId}`;
      return one(
        previewRecord(await ctx.rules.preview.preview(caller, request.account.id, request.params.id, request.body)),
      );
    },
  };
}

/** The visit a query describes, read by the redirect's own header parsing (visitor-from-request.ts). */
function probeOf(ctx: Pick<ApiContext, 'rules'>, q: ExplainQuery) {
  const bag = new FieldErrorBag();
  const country = q.country === undefined || q.country === '' ? undefined : q.country.toUpperCase();
  if (country !== undefined && !/^[A-Z]{2}$/.test(country)) bag.add('country', messages.invalid('country'));
  const ip = q.ip?.trim() ?? '';
  if (ip !== '' && parseAddress(ip) === null) bag.add('ip', messages.invalid('ip'));
  const referrer = q.referrer?.trim() ?? '';
  if (referrer !== '' && !URL.canParse(referrer)) bag.add('referrer', messages.url('referrer'));
  const at = q.at === undefined || q.at === '' ? undefined : instantOf(q.at);
  if (at === null) bag.add('at', messages.invalid('at'));
  const returning = q.returning === undefined || q.returning === '' ? '0' : q.returning;
  if (!['0', '1', 'true', 'false'].includes(returning)) bag.add('returning', messages.selected('returning'));
  bag.throwIfAny();
  const headers = {
    'user-agent': q.user_agent,
    'accept-language': q.language,
    referer: referrer === '' ? undefined : referrer,
  };
  const visitor = visitorFrom({ ip, headers }, { countries: ctx.rules.countries });
  if (country !== undefined) visitor.country = country;
  const query = (q.query ?? '').replace(/^\?/, '');
  return {
    visitor,
    query,
    address: ip,
    at: at ?? undefined,
    cookie: returning === '1' || returning === 'true' ? SEEN_COOKIE : undefined,
  };
}

/** An instant with its offset (2026-11-27T10:00:00Z), or null. */
function instantOf(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : at;
}

function explainRecord(e: ExplainAnswer) {
  return {
    outcome: e.outcome,
    url: e.url,
    rule: e.rule,
    variant: e.variant,
    trace: e.trace,
    pixels: e.pixels,
    counts_click: e.countsClick,
  };
}

function previewRecord(p: PreviewAnswer) {
  return { ...p, since: p.since === null ? null : new Date(p.since).toISOString() };
}
