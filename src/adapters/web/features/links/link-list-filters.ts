import type { FieldErrors } from '../../../../core/shared/errors.ts';
import { html, raw, type RawHtml } from '../../../shared/html/html.ts';
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

/** The filters that pick one of the account's own records (a space, a domain, a pixel). */
type ChoiceFilter = 'space' | 'domain' | 'pixel';

/** Each choice filter with its label, its "any" option and the records to pick from, in the panel's order. */
function choiceFilters(view: View, choices: FilterChoices) {
  const t = view.t.links.list;
  return [
    { name: 'space', label: t.space, any: t.anySpace, list: choices.spaces },
    { name: 'domain', label: t.domain, any: t.anyDomain, list: choices.domains },
    { name: 'pixel', label: t.pixel, any: t.anyPixel, list: choices.pixels },
  ] as const satisfies ReadonlyArray<{ name: ChoiceFilter; label: string; any: string; list: readonly Choice[] }>;
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
  for (const f of choiceFilters(view, choices)) {
    const id = q[f.name];
    if (id !== undefined)
      list.push(removableChip(`${f.label}: ${nameOf(f.list, id)}`, off({ [f.name]: undefined }), t.removeFilter));
  }
  if (q.health !== undefined) list.push(removableChip(t.healths[q.health], off({ health: undefined }), t.removeFilter));
  const status = ({ 1: t.statuses.active, 2: t.statuses.expired, 3: t.statuses.disabled } as const)[
    q.status as 1 | 2 | 3
  ];
  if (status) list.push(removableChip(`${t.status}: ${status}`, off({ status: undefined }), t.removeFilter));
  if (list.length === 0) return html``;
  return html`<ul class="chips" role="list" aria-label="${t.activeFilters}">${list.map((c) => html`<li>${c}</li>`)}<li><a class="chip-clear" href="/links">${t.clear}</a></li></ul>`;
}

/** One control of the panel; `shown: false` leaves it out (a choice filter with nothing to pick). */
interface PanelField {
  name: (typeof PANEL)[number];
  label: string;
  hint?: string;
  value: string;
  options: SelectOption[];
  shown?: boolean;
}

const optionsOf = (pairs: ReadonlyArray<readonly [string, string]>): SelectOption[] =>
  pairs.map(([value, label]) => ({ value, label }));

/** The controls behind the Filters toggle, in their order: one row a filter. */
function panelTable(view: View, q: ListQuery, choices: FilterChoices): PanelField[] {
  const t = view.t.links.list;
  const value = (v: string | number | undefined) => (v === undefined ? '' : String(v));
  const [by, health, status, sort] = [
    [
      ['any', t.byAny],
      ['title', t.byTitle],
      ['alias', t.byAlias],
      ['url', t.byUrl],
    ],
    [
      ['', t.anyHealth],
      ['broken', t.healths.broken],
      ['ok', t.healths.ok],
      ['unknown', t.healths.unknown],
    ],
    [
      ['0', t.anyStatus],
      ['1', t.statuses.active],
      ['2', t.statuses.expired],
      ['3', t.statuses.disabled],
    ],
    [
      ['desc', t.sortDesc],
      ['asc', t.sortAsc],
      ['max', t.sortMax],
      ['min', t.sortMin],
    ],
  ] as const;
  return [
    { name: 'by', label: t.by, hint: t.searchHint, value: q.by, options: optionsOf(by) },
    ...choiceFilters(view, choices).map((f) => ({
      name: f.name,
      label: f.label,
      value: value(q[f.name]),
      options: choiceOptions(f.any, f.list),
      shown: f.list.length > 0 || q[f.name] !== undefined,
    })),
    { name: 'health', label: t.health, value: value(q.health), options: optionsOf(health) },
    { name: 'status', label: t.status, value: String(q.status), options: optionsOf(status) },
    { name: 'sort', label: t.sort, value: q.sort, options: optionsOf(sort) },
    {
      name: 'per_page',
      label: t.perPage,
      value: String(q.per_page),
      options: PER_PAGE_CHOICES.map((n) => ({ value: String(n), label: String(n) })),
    },
  ];
}

/** The controls behind the Filters toggle, each with its errors, a line each. */
function panelFields(view: View, q: ListQuery, choices: FilterChoices, errors: FieldErrors | undefined): RawHtml {
  const fields = panelTable(view, q, choices).map(({ shown = true, ...f }) =>
    shown ? selectField({ ...f, id: filterId(f.name), errors }).value : '',
  );
  return raw(fields.join('\n'));
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
