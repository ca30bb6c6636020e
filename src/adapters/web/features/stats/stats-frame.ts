import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../../../../core/accounts/account.ts';
import { roleAllows } from '../../../../core/workspaces/policy.ts';
import type { Link } from '../../../../core/links/link.ts';
import { NotFoundError, ValidationError, type FieldErrors } from '../../../../core/shared/errors.ts';
import { isRangePreset } from '../../../../core/stats/range-presets.ts';
import { parseFilters, type StatsFilter } from '../../../../core/stats/stats-filter.ts';
import { seesEveryValue, statsAccess, type StatsAccess } from '../../../../core/stats/stats-access.ts';
import type { StatsQuery } from '../../../../core/stats/stats-service.ts';
import { shortUrl } from '../../../shared/presenters/link-record.ts';
import { ID_MAX } from '../../../shared/schemas/common.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { appLayout } from '../../ui/layout.ts';
import { sendView } from '../../app/respond.ts';
import { viewOf, type View } from '../../app/view.ts';
import { formatterFor } from '../../i18n/format.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { statsPasswordsOf } from './stats-unlock.ts';
import { linkHeader, passwordForm, rangeControls, sectionNav, type StatsFrame, type TableName } from './stats-view.ts';

// What every statistics page starts from: the link a URL names and what the one asking may see
// of it (the subject), and the page's frame (range, filters, the short URL and its header).

export type Query = Record<string, unknown>;

export const str = (q: Query, name: string): string | undefined =>
  typeof q[name] === 'string' && q[name] !== '' ? q[name] : undefined;

/** The link a stats URL names, its owner, and what this request may see of it. */
export interface Subject {
  link: Link;
  owner: Account;
  access: Exclude<StatsAccess, 'hidden'>;
}

/**
 * The link's workspace as the one asking when the signed-in person's role there reads
 * statistics (issue 33: "members with stats:read"), whichever workspace they are in now.
 */
function memberOf(request: FastifyRequest, workspaceId: number | undefined): number | null {
  const membership = request.viewer?.workspaces.find((w) => w.id === workspaceId);
  return membership && roleAllows(membership.role, 'stats.read') ? membership.id : null;
}

/** What the stats handlers share: the context, and the guess limiter and unlock cookies made once. */
export interface StatsDeps {
  ctx: WebContext;
  passwords: ReturnType<typeof statsPasswordsOf>;
}

/** The link and owner, and the access rule's answer; 404 (as for an unknown link) when hidden. */
export async function subjectOf(request: FastifyRequest, { ctx, passwords }: StatsDeps): Promise<Subject> {
  const raw = (request.params as { id?: string }).id ?? '';
  // Past a 32-bit id no record exists; PostgreSQL would refuse the number rather than find none.
  if (!/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > ID_MAX) throw new NotFoundError('link');
  const link = await ctx.stats.linkOf(Number(raw));
  const owner = link ? await ctx.accounts.getAccount(link.accountId).catch(() => null) : null;
  const access = statsAccess(link, owner, memberOf(request, link?.accountId), (hash) =>
    passwords.cookies.isUnlocked(request.cookies, { id: Number(raw), passwordHash: hash }),
  );
  if (access === 'hidden' || !link || !owner) throw new NotFoundError('link');
  return { link, owner, access };
}

export const asOwner = (s: Subject) => ({ id: s.owner.id, timezone: s.owner.timezone });

/** Today in the owner's time zone: a range that ends there shows clicks as they happen. */
export const today = (ctx: WebContext, s: Subject) =>
  ctx.stats.rangeFor({ preset: 'today' }, s.owner.timezone, s.link.createdAt, s.access).to;

async function shortUrlOf(ctx: WebContext, s: Subject): Promise<string> {
  const view = await ctx.links.get(s.owner.id, s.link.id);
  return shortUrl(view, ctx.urls);
}

export function send(reply: FastifyReply, view: View, status: number, title: string, main: RawHtml) {
  return sendView(reply, status, appLayout(view, { title, main, section: '/links' }));
}

/** The password form, for a locked page; the pre-session cookie it needs is made here. */
export function sendPasswordForm(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  linkId: number,
  next: string,
  status = 200,
  errors?: FieldErrors,
) {
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  return sendView(
    reply,
    status,
    appLayout(view, {
      title: view.t.stats.password.title,
      main: passwordForm(view, linkId, next, errors),
      narrow: true,
    }),
  );
}

/**
 * The frame of a page: the range from the query (a preset, custom dates, or the default), or
 * the 422 page naming the field when the dates are wrong (then null).
 */
export async function frameOf(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  s: Subject,
  current: TableName | '',
): Promise<StatsFrame | null> {
  const q = request.query as Query;
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  const isOwner = seesEveryValue(s.access);
  // No range asked: the API's default, which is the last 30 days, shown as that preset. Only
  // the owner chooses days of their own (StatsService.rangeFor).
  const preset = isRangePreset(q.range) ? q.range : isOwner && (str(q, 'from') || str(q, 'to')) ? null : 'last30';
  const shown = ctx.stats.showsDestination(s.access, s.link);
  const base = {
    view,
    fmt: formatterFor(view.fmt.locale, s.owner.timezone),
    link: s.link,
    shortUrl: await shortUrlOf(ctx, s),
    destination: shown ? s.link.url : null,
    title: shown ? s.link.title : null,
    isOwner,
    timeZone: s.owner.timezone,
    preset,
    query: { search: str(q, 'search'), sort: str(q, 'sort') },
    current,
  };
  try {
    const range = ctx.stats.rangeFor(
      { preset: preset ?? undefined, from: str(q, 'from'), to: str(q, 'to') },
      s.owner.timezone,
      s.link.createdAt,
      s.access,
    );
    // Filters are the owner's: anyone else's are not read at all (public pages keep none).
    const filters: StatsFilter[] = isOwner ? parseFilters(q) : [];
    return { ...base, range, filters };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const frame: StatsFrame = { ...base, range: { from: '', to: '' }, filters: [] };
    const main = html`${linkHeader(frame)}${sectionNav(frame)}${rangeControls(frame, error.fields, { from: str(q, 'from'), to: str(q, 'to') })}`;
    send(reply, view, 422, view.t.stats.title(base.title ?? base.shortUrl), main);
    return null;
  }
}

/** The numbers of the frame's range, as the subject's viewer may read them (rare values folded but for the owner). */
export const query = (ctx: WebContext, s: Subject, frame: StatsFrame, q: Omit<StatsQuery, 'from' | 'to' | 'filters'>) =>
  ctx.stats.query(
    asOwner(s),
    s.link.id,
    { ...q, from: frame.range.from, to: frame.range.to, filters: frame.filters },
    s.access,
  );

export type StatsList = Awaited<ReturnType<WebContext['stats']['query']>>;
