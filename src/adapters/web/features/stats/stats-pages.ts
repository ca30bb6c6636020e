import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Account } from '../../../../core/accounts/account.ts';
import { roleAllows } from '../../../../core/workspaces/policy.ts';
import type { Link } from '../../../../core/links/link.ts';
import { NotFoundError, ValidationError, type FieldErrors } from '../../../../core/shared/errors.ts';
import { verifyPassword } from '../../../../core/shared/secrets.ts';
import { isRangePreset } from '../../../../core/stats/range-presets.ts';
import { parseFilters, type StatsFilter } from '../../../../core/stats/stats-filter.ts';
import {
  seesEveryValue,
  statsAccess,
  statsPasswordAttemptKey,
  type StatsAccess,
} from '../../../../core/stats/stats-access.ts';
import type { StatsQuery } from '../../../../core/stats/stats-service.ts';
import { statsCsv, statsCsvFilename } from '../../../shared/presenters/stats.ts';
import { shortUrl } from '../../../shared/presenters/link-record.ts';
import { ID_MAX } from '../../../shared/schemas/common.ts';
import { limitAddress } from '../../../shared/request/client-address.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { appLayout } from '../../ui/layout.ts';
import { renderTimeSeries } from '../../ui/charts/time-series.ts';
import { renderWorldMap } from '../../ui/charts/world-map.ts';
import { safeNext, seeOther, sendView } from '../../app/respond.ts';
import { viewOf, type View } from '../../app/view.ts';
import { formatterFor } from '../../i18n/format.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { statsPasswordsOf } from './stats-unlock.ts';
import {
  TABLES,
  exportLink,
  filterChips,
  foldingNote,
  framedPath,
  isTableName,
  linkHeader,
  passwordForm,
  rangeControls,
  sectionNav,
  statsPath,
  tablePager,
  tableToolbar,
  totalsCards,
  valueTable,
  type StatsFrame,
  type TableControls,
  type TableName,
} from './stats-view.ts';

type Query = Record<string, unknown>;

const OVERVIEW_TOP: readonly TableName[] = ['referrers', 'browsers', 'platforms', 'devices', 'languages'];
const TOP = 5;
const PER_PAGE = 25;
const SEARCH_MAX = 255;
const PAGE_MAX = 100_000;

const str = (q: Query, name: string): string | undefined =>
  typeof q[name] === 'string' && q[name] !== '' ? q[name] : undefined;

/** The link a stats URL names, its owner, and what this request may see of it. */
interface Subject {
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
interface StatsDeps {
  ctx: WebContext;
  passwords: ReturnType<typeof statsPasswordsOf>;
}

/** The link and owner, and the access rule's answer; 404 (as for an unknown link) when hidden. */
async function subjectOf(request: FastifyRequest, { ctx, passwords }: StatsDeps): Promise<Subject> {
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

const asOwner = (s: Subject) => ({ id: s.owner.id, timezone: s.owner.timezone });

/** Today in the owner's time zone: a range that ends there shows clicks as they happen. */
const today = (ctx: WebContext, s: Subject) =>
  ctx.stats.rangeFor({ preset: 'today' }, s.owner.timezone, s.link.createdAt, s.access).to;

async function shortUrlOf(ctx: WebContext, s: Subject): Promise<string> {
  const view = await ctx.links.get(s.owner.id, s.link.id);
  return shortUrl(view, ctx.urls);
}

function send(reply: FastifyReply, view: View, status: number, title: string, main: RawHtml) {
  return sendView(reply, status, appLayout(view, { title, main, section: '/links' }));
}

/** The password form, for a locked page; the pre-session cookie it needs is made here. */
function sendPasswordForm(
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
async function frameOf(
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
const query = (ctx: WebContext, s: Subject, frame: StatsFrame, q: Omit<StatsQuery, 'from' | 'to' | 'filters'>) =>
  ctx.stats.query(
    asOwner(s),
    s.link.id,
    { ...q, from: frame.range.from, to: frame.range.to, filters: frame.filters },
    s.access,
  );

type StatsList = Awaited<ReturnType<WebContext['stats']['query']>>;

/** The world map of a list of countries (a table on the page lists its numbers). */
function countriesMap(frame: StatsFrame, countries: StatsList) {
  const t = frame.view.t.stats;
  return renderWorldMap({
    id: 'stats-map',
    caption: t.chart.map,
    // The other entry is no country: the card's or the page's table lists it.
    counts: countries.items.filter((e) => !e.other).map((e) => ({ code: e.value ?? '', count: e.count })),
    locale: frame.view.fmt.locale,
    table: 'none',
    labels: { countryColumn: t.columns.countries, valueColumn: t.columns.clicks, unknownCountry: t.unknown },
  });
}

/** The clicks of a range as a time chart, per day or (one day, or the hours' table) per hour. */
function clicksChart(frame: StatsFrame, series: StatsList, unit: 'day' | 'hour', id: string) {
  const t = frame.view.t.stats;
  return renderTimeSeries({
    id,
    caption: unit === 'hour' ? t.chart.perHour : t.chart.perDay,
    points: series.items.map((e) => ({ label: e.value ?? '', value: e.count })),
    unit,
    locale: frame.view.fmt.locale,
    timeZone: frame.timeZone,
    labels: { valueColumn: t.columns.clicks, showTable: t.showTable },
  });
}

/** One card of the overview's grid: a table's top entries, a figure above them, and a link to the whole table. */
function topCard(frame: StatsFrame, table: TableName, items: RawHtml | string, figure: RawHtml | string = '') {
  const t = frame.view.t.stats;
  const title = t.top(t.tables[table]);
  return html`<section class="stats-top${figure ? ' stats-top-map' : ''}" aria-labelledby="top-${table}">
<h2 id="top-${table}">${title}</h2>
${figure}${items}
<p><a href="${framedPath(frame, table)}">${t.all(t.tables[table])}</a></p>
</section>`;
}

/** GET /stats/:id: the headline, the chart, and the top of each table. */
async function showOverview(request: FastifyRequest, reply: FastifyReply, deps: StatsDeps) {
  const { ctx } = deps;
  const s = await subjectOf(request, deps);
  if (s.access === 'locked') return sendPasswordForm(request, reply, ctx, s.link.id, request.url);
  const frame = await frameOf(request, reply, ctx, s, '');
  if (!frame) return reply;
  const { view } = frame;
  const t = view.t.stats;
  const oneDay = frame.range.from === frame.range.to;
  const { headline, lists } = await ctx.stats.overview(
    asOwner(s),
    s.link.id,
    {
      range: frame.range,
      filters: frame.filters,
      lists: [
        { name: oneDay ? 'clicks_hours' : 'clicks', page: null },
        { name: 'country', page: null },
        ...OVERVIEW_TOP.map((table) => ({ name: TABLES[table], page: { page: 1, perPage: TOP } })),
      ],
    },
    s.access,
  );
  // In the order asked: the chart's series, the countries, then the tops.
  const [series, countries, tops] = [lists[0]!, lists[1]!, lists.slice(2)];
  const total = headline.summary.total;
  const sections = [
    topCard(
      frame,
      'countries',
      valueTable(frame, 'countries', t.top(t.tables.countries), countries.items.slice(0, TOP), total),
      countriesMap(frame, countries),
    ),
    ...OVERVIEW_TOP.map((table, i) =>
      topCard(frame, table, valueTable(frame, table, t.top(t.tables[table]), tops[i]!.items, total)),
    ),
  ];
  const main = html`${linkHeader(frame)}${sectionNav(frame)}${rangeControls(frame)}
${filterChips(frame, headline)}
${totalsCards(frame, headline, frame.isOwner && frame.filters.length === 0 && frame.range.to === today(ctx, s))}
${clicksChart(frame, series, oneDay ? 'hour' : 'day', 'stats-clicks')}
${foldingNote(frame, countries.foldedBelow)}
<div class="stats-grid">${sections}</div>`;
  return send(reply, view, 200, t.title(frame.title ?? frame.shortUrl), main);
}

/** GET /stats/:id/:name: one table, searched, sorted and paged (countries with their map, hours as a chart). */
async function showTable(request: FastifyRequest, reply: FastifyReply, deps: StatsDeps) {
  const { ctx } = deps;
  const name = (request.params as { name: string }).name;
  if (!isTableName(name)) throw new NotFoundError('page');
  const s = await subjectOf(request, deps);
  if (s.access === 'locked') return sendPasswordForm(request, reply, ctx, s.link.id, request.url);
  const frame = await frameOf(request, reply, ctx, s, name);
  if (!frame) return reply;
  const { view } = frame;
  const t = view.t.stats;
  const controls = tableControlsOf(request.query as Query);
  const [result, whole] = await Promise.all([
    query(ctx, s, frame, {
      name: TABLES[name],
      search: controls.search || undefined,
      sort: controls.sort,
      page: { page: controls.page, perPage: PER_PAGE },
    }),
    name === 'countries' || name === 'hours'
      ? query(ctx, s, frame, { name: TABLES[name], page: null })
      : Promise.resolve(null),
  ]);
  const caption = t.tables[name];
  // The table below, searched and paged, lists the map's numbers.
  const figure = !whole
    ? ''
    : name === 'countries'
      ? countriesMap(frame, whole)
      : clicksChart(frame, whole, 'hour', 'stats-hours');
  const full: TableControls = { ...controls, total: result.total };
  // The 24 hours are the chart's, its table behind "Show as table": printed once.
  const listing =
    name === 'hours'
      ? exportLink(frame, name)
      : html`${foldingNote(frame, result.foldedBelow)}
${tableToolbar(frame, name, full)}
${valueTable(frame, name, caption, result.items, result.summary.total)}
${tablePager(frame, name, full)}`;
  const main = html`${linkHeader(frame)}${sectionNav(frame)}${rangeControls(frame)}
${filterChips(frame, result)}
<section aria-labelledby="stats-table-title">
<h2 id="stats-table-title">${caption}</h2>
${figure}
${listing}
</section>`;
  return send(reply, view, 200, t.pageTitle(caption, frame.title ?? frame.shortUrl), main);
}

/** GET /stats/:id/export/:name: the whole table of the range as CSV. */
async function exportTable(request: FastifyRequest, reply: FastifyReply, deps: StatsDeps) {
  const { ctx } = deps;
  const name = (request.params as { name: string }).name;
  if (!isTableName(name)) throw new NotFoundError('page');
  const s = await subjectOf(request, deps);
  if (s.access === 'locked') return sendPasswordForm(request, reply, ctx, s.link.id, statsPath(s.link.id, name));
  const q = request.query as Query;
  const preset = isRangePreset(q.range) ? q.range : undefined;
  let range;
  let filters: StatsFilter[];
  try {
    range = ctx.stats.rangeFor(
      { preset, from: str(q, 'from'), to: str(q, 'to') },
      s.owner.timezone,
      s.link.createdAt,
      s.access,
    );
    filters = seesEveryValue(s.access) ? parseFilters(q) : [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    await frameOf(request, reply, ctx, s, name); // answers with the 422 page naming the field
    return reply;
  }
  const controls = tableControlsOf(q);
  const result = await ctx.stats.query(
    asOwner(s),
    s.link.id,
    {
      name: TABLES[name],
      from: range.from,
      to: range.to,
      search: controls.search || undefined,
      sort: controls.sort,
      page: null,
      filters,
    },
    s.access,
  );
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${statsCsvFilename(s.link.id, result)}"`)
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .header('x-content-type-options', 'nosniff')
    .send(statsCsv(result));
}

/** POST /stats/:id/password: the link's statistics password, guesses limited per address; right, an unlock cookie. */
async function unlock(request: FastifyRequest, reply: FastifyReply, deps: StatsDeps) {
  const { ctx, passwords } = deps;
  const s = await subjectOf(request, deps);
  const form = (request.body ?? {}) as Query;
  const home = statsPath(s.link.id);
  const next = safeNext(form.next, home);
  const back = next === home || next.startsWith(`${home}/`) || next.startsWith(`${home}?`) ? next : home;
  if (s.access !== 'locked') return seeOther(reply, back);
  const password = typeof form.password === 'string' ? form.password : '';
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  if (password === '')
    return sendPasswordForm(request, reply, ctx, s.link.id, back, 422, { password: [view.t.stats.password.required] });
  const key = statsPasswordAttemptKey(limitAddress(request.ip), s.link.id);
  const attempt = await passwords.attempts.consume(key);
  if (!attempt.allowed) {
    reply.header('retry-after', String(attempt.retryAfterSeconds));
    return sendPasswordForm(request, reply, ctx, s.link.id, back, 429, {
      password: [view.t.common.errors.tooManyAttempts(attempt.retryAfterSeconds)],
    });
  }
  const hash = s.link.privacyPasswordHash!;
  if (!(await verifyPassword(password, hash)))
    return sendPasswordForm(request, reply, ctx, s.link.id, back, 422, { password: [view.t.stats.password.wrong] });
  await passwords.attempts.reset(key);
  reply.header('set-cookie', passwords.cookies.serialize({ id: s.link.id, passwordHash: hash }));
  return seeOther(reply, back);
}

// The table's page number under the one reading of numbers: anything else is the 422 page naming it.
const tableQuery = {
  querystring: Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_MAX })) }),
};

/** The statistics pages of a link, open to whoever the access rule lets see them (core/stats/stats-access.ts). */
export const statsPages: WebFeature = (web, ctx: WebContext) => {
  const deps: StatsDeps = { ctx, passwords: statsPasswordsOf(ctx.web) };

  web.get('/stats/:id', { config: { access: 'public' } }, (request, reply) => showOverview(request, reply, deps));
  web.get('/stats/:id/:name', { config: { access: 'public' }, schema: tableQuery }, (request, reply) =>
    showTable(request, reply, deps),
  );
  web.get('/stats/:id/export/:name', { config: { access: 'public' } }, (request, reply) =>
    exportTable(request, reply, deps),
  );
  web.post('/stats/:id/password', { config: { access: 'public' } }, (request, reply) => unlock(request, reply, deps));
};

function tableControlsOf(q: Query): Omit<TableControls, 'total'> {
  const search = (str(q, 'search') ?? '').slice(0, SEARCH_MAX);
  const sort = q.sort === 'max' || q.sort === 'min' ? q.sort : undefined;
  const page = typeof q.page === 'number' ? q.page : 1;
  return { search, sort, page, perPage: PER_PAGE };
}
