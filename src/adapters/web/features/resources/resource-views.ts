import type { FieldErrors } from '../../../../core/shared/errors.ts';
import { POLICY, type Action } from '../../../../core/workspaces/policy.ts';
import { webRuleOf } from '../../app/web-route-actions.ts';
import { PER_PAGE, type Page } from '../../../../core/shared/page.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import type { View } from '../../app/view.ts';
import {
  csrfField,
  emptyState,
  errorSummary,
  pagination,
  selectField,
  textField,
  withQuery,
} from '../../ui/components.ts';
import type { NamedRecord, ResourceListQuery, ResourceSpec, Form } from './resource-spec.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the views never touch F and I
type AnySpec<T extends NamedRecord, Q extends ResourceListQuery> = ResourceSpec<T, any, any, Q>;

const PAGE_SIZES = [PER_PAGE.default, 25, 50, PER_PAGE.max];

/** The list's query as URL parameters, defaults left out (so the URL stays short). */
function listParams<Q extends ResourceListQuery>(
  spec: AnySpec<NamedRecord, Q>,
  q: Q,
): Record<string, string | undefined> {
  return {
    search: q.search,
    ...spec.filterParams?.(q),
    sort: q.sort === 'desc' ? undefined : q.sort,
    per_page: q.per_page === PER_PAGE.default ? undefined : String(q.per_page),
  };
}

function filterForm<T extends NamedRecord, Q extends ResourceListQuery>(
  view: View,
  spec: AnySpec<T, Q>,
  q: Q,
  filtered: boolean,
): RawHtml {
  const r = view.t.resources;
  const base = `/${spec.plural}`;
  return html`<form method="get" action="${base}" class="toolbar" role="search">
${textField({ name: 'search', label: spec.text(view).searchLabel, type: 'search', value: q.search ?? '', maxlength: 255 })}
${spec.filters?.(view, q) ?? ''}
${selectField({
  name: 'sort',
  label: r.sort,
  value: q.sort,
  options: [
    { value: 'desc', label: r.newest },
    { value: 'asc', label: r.oldest },
  ],
})}
${selectField({ name: 'per_page', label: view.t.common.pagination.perPage, value: String(q.per_page), options: PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) })) })}
<div class="actions"><button type="submit">${r.searchButton}</button>${filtered ? html`<a href="${base}">${r.clearSearch}</a>` : ''}</div>
</form>`;
}

function table<T extends NamedRecord, Q extends ResourceListQuery>(
  view: View,
  spec: AnySpec<T, Q>,
  items: readonly T[],
): RawHtml {
  const r = view.t.resources;
  const columns = spec.columns(view);
  const writes = canWrite(view, `/${spec.plural}/new`);
  const rows = items.map((item) => {
    const path = `/${spec.plural}/${item.id}`;
    return html`<tr>
<th scope="row">${writes ? html`<a href="${path}/edit">${item.name}</a>` : item.name}</th>
${columns.map((c) => html`<td data-label="${c.header}">${c.cell(item)}</td>`)}
<td class="date" data-label="${r.created}">${view.fmt.date(item.createdAt)}</td>
<td>${writes ? html`<div class="row-actions"><a href="${path}/edit" aria-label="${r.editLabel(item.name)}">${view.t.common.edit}</a><a href="${path}/delete" aria-label="${r.deleteLabel(item.name)}">${view.t.common.delete}</a></div>` : ''}</td>
</tr>`;
  });
  return html`<div class="table-wrap"><table class="table-stack">
<caption>${spec.text(view).caption}</caption>
<thead><tr><th scope="col">${r.name}</th>${columns.map((c) => html`<th scope="col">${c.header}</th>`)}<th scope="col">${r.created}</th><th scope="col">${view.t.common.actions}</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`;
}

/** Whether the person's role writes here (the same table the routes are checked by). */
function canWrite(view: View, formPath: string): boolean {
  const rule = webRuleOf('POST', formPath, 'account');
  return rule === null || !(rule in POLICY) || view.can(rule as Action);
}

/** The list; with `errors`, the query's refused fields named above its form, and no rows. */
export function listView<T extends NamedRecord, Q extends ResourceListQuery>(
  view: View,
  spec: AnySpec<T, Q>,
  q: Q,
  page: Page<T>,
  errors?: FieldErrors,
): RawHtml {
  const text = spec.text(view);
  const base = `/${spec.plural}`;
  const params = listParams(spec, q);
  const filtered = Object.values({ ...params, per_page: undefined, sort: undefined }).some((v) => v !== undefined);
  // Nothing yet: the empty state says what goes here, with the one action that fills it.
  const none = !filtered && page.total === 0 && !errors;
  const add = { href: `${base}/new`, label: text.add };
  const writes = canWrite(view, `${base}/new`);
  const body =
    page.items.length > 0
      ? table(view, spec, page.items)
      : html`<p>${filtered || page.total > 0 ? text.noMatch : text.empty}</p>`;
  if (none)
    return html`<h1>${text.title}</h1>
${emptyState({ id: 'list-empty', title: text.empty, text: text.intro, ...(writes ? { action: add } : {}) })}`;
  return html`<div class="page-head"><h1>${text.title}</h1>${writes ? html`<a class="button" href="${add.href}">${add.label}</a>` : ''}</div>
<p class="muted">${text.intro}</p>
${errorSummary(view, errors)}
${page.total > 0 || filtered || errors ? filterForm(view, spec, q, filtered) : ''}
${errors ? '' : body}
${pagination(view, { page: page.page, perPage: page.perPage, total: page.total, hrefFor: (n) => withQuery(base, params, { page: n === 1 ? undefined : n }) })}`;
}

/** The new or edit form; `record` is the one edited (null on new). */
export function formView<T extends NamedRecord, Q extends ResourceListQuery>(
  view: View,
  spec: AnySpec<T, Q>,
  record: T | null,
  values: Form,
  errors: FieldErrors | undefined,
  problems?: readonly string[],
): RawHtml {
  const text = spec.text(view);
  const action = record ? `/${spec.plural}/${record.id}/edit` : `/${spec.plural}/new`;
  return html`<h1>${record ? text.editTitle(record.name) : text.newTitle}</h1>
${errorSummary(view, errors)}
${record && spec.aside ? spec.aside(view, record, problems) : ''}
<form method="post" action="${action}" class="stack" novalidate>
${csrfField(view)}
${spec.fields(view, values, errors, record)}
<div class="actions"><button type="submit">${record ? view.t.common.save : view.t.common.create}</button><a href="/${spec.plural}">${view.t.common.cancel}</a></div>
</form>
${record ? html`<p class="record-delete"><a href="/${spec.plural}/${record.id}/delete">${view.t.resources.deleteLabel(record.name)}</a></p>` : ''}`;
}

export function deleteView<T extends NamedRecord, Q extends ResourceListQuery>(
  view: View,
  spec: AnySpec<T, Q>,
  record: T,
): RawHtml {
  const text = spec.text(view);
  const r = view.t.resources;
  return html`<h1>${text.deleteTitle(record.name)}</h1>
<p>${text.deleteEffect}</p>
<form method="post" action="/${spec.plural}/${record.id}/delete" class="actions">
${csrfField(view)}
<button type="submit" class="danger">${r.deleteButton}</button>
<a href="/${spec.plural}">${r.keep}</a>
</form>`;
}
