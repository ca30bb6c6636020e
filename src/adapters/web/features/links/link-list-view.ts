import type { LinkView } from '../../../../core/links/link.ts';
import { linkStateOf } from '../../../../core/links/link-state.ts';
import type { LinkClicks } from '../../../../core/stats/stats-service.ts';
import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { Page } from '../../../../core/shared/page.ts';
import { shortUrl, type ShortUrlOptions } from '../../../shared/presenters/link-record.ts';
import { html, urlAttr, type RawHtml } from '../../../shared/html/html.ts';
import type { View } from '../../app/view.ts';
import { badge, copyButton, emptyState, errorSummary, pagination } from '../../ui/components.ts';
import { menu, menuItems } from '../../ui/menu.ts';
import { sparkline } from '../../ui/sparkline.ts';
import type { FilterChoices } from './link-list-options.ts';
import { isNarrowed, listUrl, type ListQuery } from './link-list-query.ts';
import { bulkForm, type BulkValues } from './link-bulk-view.ts';
import { filters, showsChips } from './link-list-filters.ts';
import { tagChips, tagFilterChip } from './link-tag-chips.ts';
import { brokenBadge } from './link-health-badge.ts';

export interface ListPageData {
  query: ListQuery;
  /** null: the query was refused (422), so no links were read. */
  page: Page<LinkView> | null;
  /** Each shown link's clicks of the last 30 days (absent: none read). */
  clicks: ReadonlyMap<number, LinkClicks>;
  choices: FilterChoices;
  urls: ShortUrlOptions;
  now: number;
  /** The query's faults (GET) by its parameter names. */
  queryErrors?: FieldErrors | undefined;
  /** The bulk form's faults (POST), by its field names. */
  bulkErrors?: FieldErrors | undefined;
  bulkValues?: BulkValues | undefined;
}

const FILTER_NAMES = [
  'search',
  'by',
  'space',
  'domain',
  'pixel',
  'health',
  'status',
  'sort',
  'per_page',
  'page',
] as const;

const TONE = { active: 'ok', expired: 'warn', disabled: 'danger' } as const;

/** A URL as people read it: without `https://` (the link itself keeps it). */
const withoutScheme = (url: string): string => url.replace(/^https?:\/\//i, '');

function clicksCell(view: View, item: LinkView, short: string, clicks: LinkClicks | undefined): RawHtml {
  const t = view.t.links.list;
  const { link } = item;
  const total = view.fmt.number(link.clicks);
  const trend = clicks
    ? html`<span class="trend">${sparkline(clicks.perDay, t.trendLabel(view.fmt.number(clicks.total)))}<span class="trend-total">${t.trendTotal(view.fmt.number(clicks.total))}</span></span>`
    : '';
  return html`<a class="clicks" href="/stats/${link.id}" aria-label="${t.clicksLabel(total, short)}">${total}</a>${trend}`;
}

function rowMenu(view: View, id: number, short: string): RawHtml {
  const t = view.t.links.list;
  return menu(
    { summary: html`<span aria-hidden="true">⋯</span>`, label: t.rowMenu(short), className: 'row-menu' },
    menuItems([
      // A role that cannot write links is not offered the forms that would refuse it.
      view.can('links.write') ? html`<a href="/links/${id}/edit" aria-label="${t.editLabel(short)}">${t.edit}</a>` : '',
      html`<a href="/stats/${id}" aria-label="${t.statsLabel(short)}">${t.stats}</a>`,
      html`<a href="/links/${id}/qr" aria-label="${t.qrLabel(short)}">${t.qr}</a>`,
      view.can('links.write')
        ? html`<a class="danger" href="/links/${id}/delete" aria-label="${t.deleteLabel(short)}">${t.delete}</a>`
        : '',
    ]),
  );
}

function row(view: View, item: LinkView, data: ListPageData): RawHtml {
  const t = view.t.links.list;
  const { link } = item;
  const short = shortUrl(item, data.urls);
  const state = linkStateOf(link, data.now);
  const select = view.can('links.write')
    ? html`<td class="cell-select"><input type="checkbox" name="ids[]" value="${link.id}" id="link-select-${link.id}" aria-label="${t.select(short)}"${data.bulkValues?.ids.includes(link.id) ? html` checked` : ''}></td>`
    : '';
  return html`<tr>
${select}
<td class="cell-link">
<div class="link-short"><a class="short-url" href="${urlAttr(short)}">${withoutScheme(short)}</a>${copyButton(view, short)}${state === 'active' ? '' : badge(t.statuses[state], TONE[state])}${brokenBadge(view, item)}</div>
${link.title ? html`<div class="link-title">${link.title}</div>` : ''}
<div class="link-destination"><a href="${urlAttr(link.url)}" rel="noopener noreferrer">${withoutScheme(link.url)}</a></div>
<div class="link-meta">${item.space ? html`<span class="chip">${item.space.name}</span>` : ''}${tagChips(view, item.tags)}</div>
</td>
<td class="cell-clicks">${clicksCell(view, item, short, data.clicks.get(link.id))}</td>
<td class="cell-status">${badge(t.statuses[state], TONE[state])}</td>
<td class="cell-created"><time datetime="${new Date(link.createdAt).toISOString()}">${view.fmt.date(link.createdAt)}</time></td>
<td class="cell-actions">${rowMenu(view, link.id, short)}</td>
</tr>`;
}

function table(view: View, data: ListPageData, page: Page<LinkView>): RawHtml {
  const t = view.t.links.list;
  const c = t.columns;
  return html`<div class="links-wrap"><table class="links-table${view.can('links.write') ? '' : ' read-only'}">
<caption class="visually-hidden">${t.caption}</caption>
<thead><tr>
${view.can('links.write') ? html`<th scope="col" class="cell-select"><input type="checkbox" id="f-ids" data-select-all="ids[]" aria-label="${t.selectAll}"></th>` : ''}
<th scope="col" class="cell-link">${c.link}</th>
<th scope="col" class="cell-clicks">${c.clicks}</th>
<th scope="col" class="cell-status">${c.status}</th>
<th scope="col" class="cell-created">${c.created}</th>
<th scope="col" class="cell-actions"><span class="visually-hidden">${c.actions}</span></th>
</tr></thead>
<tbody>${page.items.map((item) => row(view, item, data))}</tbody>
</table></div>`;
}

function results(view: View, data: ListPageData): RawHtml {
  const t = view.t.links.list;
  const { page, query } = data;
  if (page === null) return html`<p>${t.invalidQuery}</p>`;
  if (page.total === 0 && !isNarrowed(query)) {
    return emptyState({
      id: 'links-empty',
      title: t.emptyTitle,
      text: t.empty,
      ...(view.can('links.write') ? { action: { href: '/links/new', label: t.createFirst } } : {}),
    });
  }
  // The chips row above already offers *Clear filters*: only a list narrowed by its tag alone needs it here.
  if (page.total === 0)
    return emptyState({
      id: 'links-no-match',
      title: t.noMatchTitle,
      text: t.noMatch,
      ...(showsChips(query) ? {} : { action: { href: '/links', label: t.clear } }),
    });
  if (page.items.length === 0)
    return html`<p>${t.pastLastPage}</p><p><a href="${listUrl(query, { page: undefined })}">${t.firstPage}</a></p>`;
  // Bulk actions change links (export included, an editor's action): a reader gets the table alone.
  const list = view.can('links.write')
    ? bulkForm(
        view,
        {
          query,
          total: page.total,
          totalIsLowerBound: page.totalIsLowerBound === true,
          spaces: data.choices.spaces,
          values: data.bulkValues,
          errors: data.bulkErrors,
        },
        table(view, data, page),
      )
    : table(view, data, page);
  return html`${list}
${pagination(view, { page: page.page, perPage: page.perPage, total: page.total, totalIsLowerBound: page.totalIsLowerBound === true, shown: page.items.length, hrefFor: (n) => listUrl(query, { page: n === 1 ? undefined : n }) })}`;
}

/** The main of GET /links (and of a refused bulk action, which shows the list again). */
export function listMain(view: View, data: ListPageData): RawHtml {
  const t = view.t.links.list;
  const filterFields = Object.fromEntries(FILTER_NAMES.map((n) => [n, `filter[${n}]`]));
  return html`<div class="page-head"><h1>${view.t.links.title}</h1>${view.can('links.write') ? html`<a class="button" href="/links/new">${t.newLink}</a>` : ''}${view.can('links.import') ? html`<a class="button secondary" href="/links/import">${t.importLinks}</a>` : ''}</div>
${errorSummary(view, data.queryErrors, filterFields)}
${errorSummary(view, data.bulkErrors)}
${filters(view, data.query, data.choices, data.queryErrors)}
${tagFilterChip(view, data.query.tag, listUrl(data.query, { tag: undefined, page: undefined }))}
${results(view, data)}`;
}
