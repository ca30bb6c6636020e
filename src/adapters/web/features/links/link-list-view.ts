import type { LinkView } from '../../../../core/links/link.ts';
import { linkStateOf } from '../../../../core/links/link-state.ts';
import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { Page } from '../../../../core/shared/page.ts';
import { shortUrl, type ShortUrlOptions } from '../../../http/presenters/link-record.ts';
import { html, urlAttr, type RawHtml } from '../../pages/html.ts';
import type { View } from '../../app/view.ts';
import { copyButton, errorSummary, fieldId, pagination, selectField, textField, type SelectOption } from '../../ui/components.ts';
import type { FilterChoices } from './link-list-options.ts';
import { isNarrowed, listUrl, PER_PAGE_CHOICES, type ListQuery } from './link-list-query.ts';
import { bulkForm, type BulkValues } from './link-bulk-view.ts';
import { tagChips, tagFilterChip, tagFilterField } from './link-tag-chips.ts';

export interface ListPageData {
  query: ListQuery;
  /** null: the query was refused (422), so no links were read. */
  page: Page<LinkView> | null;
  choices: FilterChoices;
  urls: ShortUrlOptions;
  now: number;
  /** The query's faults (GET) by its parameter names. */
  queryErrors?: FieldErrors | undefined;
  /** The bulk form's faults (POST), by its field names. */
  bulkErrors?: FieldErrors | undefined;
  bulkValues?: BulkValues | undefined;
}

/** The filter form's controls have ids of their own: the bulk form has a `space` too. */
const filterId = (name: string) => fieldId(`filter[${name}]`);
const FILTER_NAMES = ['search', 'by', 'space', 'domain', 'pixel', 'status', 'sort', 'per_page', 'page'] as const;

function choiceOptions(any: string, choices: readonly { id: number; name: string }[]): SelectOption[] {
  return [{ value: '', label: any }, ...choices.map((c) => ({ value: String(c.id), label: c.name }))];
}

function filters(view: View, q: ListQuery, choices: FilterChoices, errors: FieldErrors | undefined): RawHtml {
  const t = view.t.links.list;
  const value = (v: string | number | undefined) => (v === undefined ? '' : String(v));
  // A kind the account has none of is left out, unless the query names one (a bookmark).
  const optional = (name: 'space' | 'domain' | 'pixel', label: string, any: string, list: FilterChoices['spaces']) =>
    list.length > 0 || q[name] !== undefined ? selectField({ name, id: filterId(name), label, options: choiceOptions(any, list), value: value(q[name]), errors }) : '';
  return html`<form method="get" action="/links" class="toolbar" role="search" aria-label="${t.filtersLabel}" novalidate>
${textField({ name: 'search', id: filterId('search'), label: t.search, hint: t.searchHint, type: 'search', value: q.search, errors, maxlength: 255 })}
${selectField({
  name: 'by',
  id: filterId('by'),
  label: t.by,
  value: q.by,
  errors,
  options: [
    { value: 'title', label: t.byTitle },
    { value: 'alias', label: t.byAlias },
    { value: 'url', label: t.byUrl },
  ],
})}
${optional('space', t.space, t.anySpace, choices.spaces)}
${optional('domain', t.domain, t.anyDomain, choices.domains)}
${optional('pixel', t.pixel, t.anyPixel, choices.pixels)}
${tagFilterField(q.tag)}
${selectField({
  name: 'status',
  id: filterId('status'),
  label: t.status,
  value: String(q.status),
  errors,
  options: [
    { value: '0', label: t.anyStatus },
    { value: '1', label: t.statuses.active },
    { value: '2', label: t.statuses.expired },
    { value: '3', label: t.statuses.disabled },
  ],
})}
${selectField({
  name: 'sort',
  id: filterId('sort'),
  label: t.sort,
  value: q.sort,
  errors,
  options: [
    { value: 'desc', label: t.sortDesc },
    { value: 'asc', label: t.sortAsc },
    { value: 'max', label: t.sortMax },
    { value: 'min', label: t.sortMin },
  ],
})}
${selectField({
  name: 'per_page',
  id: filterId('per_page'),
  label: t.perPage,
  value: String(q.per_page),
  errors,
  options: PER_PAGE_CHOICES.map((n) => ({ value: String(n), label: String(n) })),
})}
<div class="actions"><button type="submit">${t.apply}</button>${isNarrowed(q) ? html`<a href="/links">${t.clear}</a>` : ''}</div>
</form>`;
}

function row(view: View, item: LinkView, data: ListPageData): RawHtml {
  const t = view.t.links.list;
  const { link } = item;
  const short = shortUrl(item, data.urls);
  const state = linkStateOf(link, data.now);
  return html`<tr>
<td><input type="checkbox" name="ids[]" value="${link.id}" id="link-select-${link.id}" aria-label="${t.select(short)}"${data.bulkValues?.ids.includes(link.id) ? html` checked` : ''}></td>
<td><a class="url" href="${urlAttr(short)}">${short}</a> ${copyButton(view, short)}</td>
<td><a class="url" href="${urlAttr(link.url)}" rel="noopener noreferrer">${link.url}</a></td>
<td>${link.title ?? t.noTitle}${tagChips(view, item.tags)}</td>
<td>${item.space?.name ?? t.noSpace}</td>
<td class="num">${view.fmt.number(link.clicks)}</td>
<td><span class="status-${state}">${t.statuses[state]}</span></td>
<td><time datetime="${new Date(link.createdAt).toISOString()}">${view.fmt.date(link.createdAt)}</time></td>
<td><ul class="row-actions" role="list">
<li><a href="/links/${link.id}/edit" aria-label="${t.editLabel(short)}">${t.edit}</a></li>
<li><a href="/stats/${link.id}" aria-label="${t.statsLabel(short)}">${t.stats}</a></li>
<li><a href="/links/${link.id}/qr" aria-label="${t.qrLabel(short)}">${t.qr}</a></li>
</ul></td>
</tr>`;
}

function table(view: View, data: ListPageData, page: Page<LinkView>): RawHtml {
  const t = view.t.links.list;
  const c = t.columns;
  return html`<div class="table-wrap"><table class="links-table">
<caption class="visually-hidden">${t.caption}</caption>
<thead><tr>
<th scope="col"><input type="checkbox" id="f-ids" data-select-all="ids[]" aria-label="${t.selectAll}"></th>
<th scope="col">${c.shortUrl}</th>
<th scope="col">${c.destination}</th>
<th scope="col">${c.title}</th>
<th scope="col">${c.space}</th>
<th scope="col" class="num">${c.clicks}</th>
<th scope="col">${c.status}</th>
<th scope="col">${c.created}</th>
<th scope="col">${c.actions}</th>
</tr></thead>
<tbody>${page.items.map((item) => row(view, item, data))}</tbody>
</table></div>`;
}

function results(view: View, data: ListPageData): RawHtml {
  const t = view.t.links.list;
  const { page, query } = data;
  if (page === null) return html`<p>${t.invalidQuery}</p>`;
  if (page.total === 0 && !isNarrowed(query)) {
    return html`<section aria-labelledby="links-empty"><h2 id="links-empty">${t.emptyTitle}</h2>
<p>${t.empty}</p><p><a class="button" href="/links/new">${t.createFirst}</a></p></section>`;
  }
  if (page.total === 0) return html`<p>${t.noMatch}</p><p><a href="/links">${t.clear}</a></p>`;
  if (page.items.length === 0) return html`<p>${t.pastLastPage}</p><p><a href="${listUrl(query, { page: undefined })}">${t.firstPage}</a></p>`;
  return html`${bulkForm(view, { query, total: page.total, totalIsLowerBound: page.totalIsLowerBound === true, spaces: data.choices.spaces, values: data.bulkValues, errors: data.bulkErrors }, table(view, data, page))}
${pagination(view, { page: page.page, perPage: page.perPage, total: page.total, totalIsLowerBound: page.totalIsLowerBound === true, shown: page.items.length, hrefFor: (n) => listUrl(query, { page: n === 1 ? undefined : n }) })}`;
}

/** The main of GET /links (and of a refused bulk action, which shows the list again). */
export function listMain(view: View, data: ListPageData): RawHtml {
  const t = view.t.links.list;
  const filterFields = Object.fromEntries(FILTER_NAMES.map((n) => [n, `filter[${n}]`]));
  return html`<div class="actions"><h1>${view.t.links.title}</h1><a class="button" href="/links/new">${t.newLink}</a></div>
${errorSummary(view, data.queryErrors, filterFields)}
${errorSummary(view, data.bulkErrors)}
${filters(view, data.query, data.choices, data.queryErrors)}
${tagFilterChip(view, data.query.tag, listUrl(data.query, { tag: undefined, page: undefined }))}
${results(view, data)}`;
}
