import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { NotFoundError, ValidationError } from '../../../../core/shared/errors.ts';
import { verifyPassword } from '../../../../core/shared/secrets.ts';
import { isRangePreset } from '../../../../core/stats/range-presets.ts';
import { parseFilters, type StatsFilter } from '../../../../core/stats/stats-filter.ts';
import { seesEveryValue, statsPasswordAttemptKey } from '../../../../core/stats/stats-access.ts';
import { statsCsv, statsCsvFilename } from '../../../shared/presenters/stats.ts';
import { limitAddress } from '../../../shared/request/client-address.ts';
import { html } from '../../../shared/html/html.ts';
import { safeNext, seeOther } from '../../app/respond.ts';
import { viewOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { statsPasswordsOf } from './stats-unlock.ts';
import {
  TABLES,
  exportLink,
  exportedList,
  filterChips,
  foldingNote,
  isExportName,
  isTableName,
  linkHeader,
  rangeControls,
  sectionNav,
  statsPath,
  tablePager,
  tableToolbar,
  totalsCards,
  valueTable,
  type TableControls,
  type TableName,
} from './stats-view.ts';
import {
  asOwner,
  frameOf,
  query,
  send,
  sendPasswordForm,
  str,
  subjectOf,
  today,
  type Query,
  type StatsDeps,
} from './stats-frame.ts';
import { clicksChart, countriesMap, topCard } from './stats-cards.ts';
import { conversionsSection } from './stats-conversions.ts';

const OVERVIEW_TOP: readonly TableName[] = ['referrers', 'browsers', 'platforms', 'devices', 'languages'];
const TOP = 5;
const PER_PAGE = 25;
const SEARCH_MAX = 255;
const PAGE_MAX = 100_000;

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
  const [{ headline, lists }, conversions] = await Promise.all([
    ctx.stats.overview(
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
    ),
    // The owner's alone: results name the link's rules and destinations.
    frame.isOwner
      ? ctx.conversions.results(s.owner.id, s.link.id, { range: frame.range, timeZone: frame.timeZone })
      : Promise.resolve(null),
  ]);
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
${exportLink(frame, oneDay ? 'hours' : 'clicks')}
${conversions ? conversionsSection(frame, conversions) : ''}
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

/** GET /stats/:id/export/:name: the whole table of the range as CSV (`clicks`: the overview's chart, per day). */
async function exportTable(request: FastifyRequest, reply: FastifyReply, deps: StatsDeps) {
  const { ctx } = deps;
  const name = (request.params as { name: string }).name;
  if (!isExportName(name)) throw new NotFoundError('page');
  const page = name === 'clicks' ? '' : name;
  const s = await subjectOf(request, deps);
  if (s.access === 'locked') return sendPasswordForm(request, reply, ctx, s.link.id, statsPath(s.link.id, page));
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
    await frameOf(request, reply, ctx, s, page); // answers with the 422 page naming the field
    return reply;
  }
  const controls = tableControlsOf(q);
  const result = await ctx.stats.query(
    asOwner(s),
    s.link.id,
    {
      name: exportedList(name),
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
