import type { FieldErrors } from '../../../../core/shared/errors.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import type { View } from '../../app/view.ts';
import { errorsFor, fieldId, removableChip, selectField, type SelectOption } from '../../ui/components.ts';
import type { Choice, FilterChoices } from './link-list-options.ts';
import { DEFAULT_QUERY, listUrl, PER_PAGE_CHOICES, type ListQuery } from './link-list-query.ts';
import { tagFilterField } from './link-tag-chips.ts';

/** The filter form's controls have ids of their own: the bulk form has a `space` too. */
const filterId = (name: string) => fieldId(`filter[${name}]`);

/** The parameters behind the Filters toggle (the search stays in sight). */
const PANEL = ['by', 'space', 'domain', 'pixel', 'health', 'status', 'sort', 'per_page'] as const;

function choiceOptions(any: string, choices: readonly Choice[]): SelectOption[] {
  return [{ value: '', label: any }, ...choices.map((c) => ({ value: String(c.id), label: c.name }))];
}

const nameOf = (list: readonly Choice[], id: number | undefined) => list.find((c) => c.id === id)?.name ?? `#${id}`;

/** Whether the chips row shows (with its *Clear filters*): a narrowing other than the tag, whose chip stands apart. */
export function showsChips(q: ListQuery): boolean {
  return (
    Boolean(q.search) ||
    q.space !== undefined ||
    q.domain !== undefined ||
    q.pixel !== undefined ||
    q.health !== undefined ||
    q.status === 1 ||
    q.status === 2 ||
    q.status === 3
  );
}

/** Each narrowing in force, as a chip that removes it (the search with its field). */
function chips(view: View, q: ListQuery, choices: FilterChoices): RawHtml {
  const t = view.t.links.list;
  const off = (changes: Record<string, undefined>) => listUrl(q, { ...changes, page: undefined });
  const byLabel = { any: t.byAny, title: t.byTitle, alias: t.byAlias, url: t.byUrl } as const;
  const list: RawHtml[] = [];
  if (q.search) {
    const text = q.by === 'any' ? t.chipSearch(q.search) : t.chipSearchIn(q.search, byLabel[q.by]);
    list.push(removableChip(text, off({ search: undefined, by: undefined }), t.removeFilter));
  }
  if (q.space !== undefined)
    list.push(
      removableChip(`${t.space}: ${nameOf(choices.spaces, q.space)}`, off({ space: undefined }), t.removeFilter),
    );
  if (q.domain !== undefined)
    list.push(
      removableChip(`${t.domain}: ${nameOf(choices.domains, q.domain)}`, off({ domain: undefined }), t.removeFilter),
    );
  if (q.pixel !== undefined)
    list.push(
      removableChip(`${t.pixel}: ${nameOf(choices.pixels, q.pixel)}`, off({ pixel: undefined }), t.removeFilter),
    );
  if (q.health !== undefined) list.push(removableChip(t.healths[q.health], off({ health: undefined }), t.removeFilter));
  const status = ({ 1: t.statuses.active, 2: t.statuses.expired, 3: t.statuses.disabled } as const)[
    q.status as 1 | 2 | 3
  ];
  if (status) list.push(removableChip(`${t.status}: ${status}`, off({ status: undefined }), t.removeFilter));
  if (list.length === 0) return html``;
  return html`<ul class="chips" role="list" aria-label="${t.activeFilters}">${list.map((c) => html`<li>${c}</li>`)}<li><a class="chip-clear" href="/links">${t.clear}</a></li></ul>`;
}

/** The controls behind the Filters toggle, each with its errors. */
function panelFields(view: View, q: ListQuery, choices: FilterChoices, errors: FieldErrors | undefined): RawHtml {
  const t = view.t.links.list;
  const value = (v: string | number | undefined) => (v === undefined ? '' : String(v));
  const optional = (name: 'space' | 'domain' | 'pixel', label: string, any: string, list: readonly Choice[]) =>
    list.length > 0 || q[name] !== undefined
      ? selectField({
          name,
          id: filterId(name),
          label,
          options: choiceOptions(any, list),
          value: value(q[name]),
          errors,
        })
      : '';
  return html`${selectField({
    name: 'by',
    id: filterId('by'),
    label: t.by,
    hint: t.searchHint,
    value: q.by,
    errors,
    options: [
      { value: 'any', label: t.byAny },
      { value: 'title', label: t.byTitle },
      { value: 'alias', label: t.byAlias },
      { value: 'url', label: t.byUrl },
    ],
  })}
${optional('space', t.space, t.anySpace, choices.spaces)}
${optional('domain', t.domain, t.anyDomain, choices.domains)}
${optional('pixel', t.pixel, t.anyPixel, choices.pixels)}
${selectField({
  name: 'health',
  id: filterId('health'),
  label: t.health,
  value: value(q.health),
  errors,
  options: [
    { value: '', label: t.anyHealth },
    { value: 'broken', label: t.healths.broken },
    { value: 'ok', label: t.healths.ok },
    { value: 'unknown', label: t.healths.unknown },
  ],
})}
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
})}`;
}

/**
 * The search box in sight, the other filters behind a Filters toggle (`<details>`: open when one
 * of them is wrong), the ones in force as chips below. One GET form: a closed `<details>` still
 * sends its fields.
 */
export function filters(view: View, q: ListQuery, choices: FilterChoices, errors: FieldErrors | undefined): RawHtml {
  const t = view.t.links.list;
  const set = PANEL.filter((k) => q[k] !== undefined && q[k] !== DEFAULT_QUERY[k] && (k !== 'by' || q.search)).length;
  const panelWrong = PANEL.some((k) => errorsFor(errors, k).length > 0);
  const searchErrors = errorsFor(errors, 'search');
  const searchId = filterId('search');
  return html`<form method="get" action="/links" class="list-toolbar" role="search" aria-label="${t.filtersLabel}" novalidate>
<div class="search-box">
<label for="${searchId}" class="visually-hidden">${t.search}</label>
<input id="${searchId}" name="search" type="search" value="${q.search ?? ''}" maxlength="255" placeholder="${t.searchPlaceholder}"${searchErrors.length > 0 ? html` aria-invalid="true" aria-describedby="${searchId}-error"` : ''}>
<button type="submit" class="secondary">${t.searchButton}</button>
</div>
${searchErrors.length > 0 ? html`<p class="field-error" id="${searchId}-error">${searchErrors.join(' ')}</p>` : ''}
<details class="filters"${panelWrong ? html` open` : ''}>
<summary class="button secondary">${t.filtersToggle}${set > 0 ? html` <span class="count">${set}</span>` : ''}</summary>
<div class="filters-panel">
${panelFields(view, q, choices, errors)}
<div class="actions"><button type="submit">${t.apply}</button></div>
</div>
</details>
${tagFilterField(q.tag)}
</form>
${chips(view, q, choices)}`;
}
