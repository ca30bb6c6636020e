import type { FieldErrors } from '../../../../core/shared/errors.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import type { View } from '../../app/view.ts';
import { csrfField, errorsFor, selectField } from '../../ui/components.ts';
import type { Choice } from './link-list-options.ts';
import { listUrl, queryParams, type ListQuery } from './link-list-query.ts';

export const BULK_ACTIONS = ['delete', 'move', 'enable', 'disable', 'export'] as const;
export type BulkActionName = (typeof BULK_ACTIONS)[number];
export type BulkScope = 'selected' | 'matching';

/** What the bulk form held, to show it again after a refusal. */
export interface BulkValues {
  action: BulkActionName | undefined;
  space: number | null | undefined;
  scope: BulkScope;
  ids: number[];
}

/** The list's search and filters, carried by a bulk form so "all matching" means what was shown. */
function filterFields(q: ListQuery): RawHtml {
  return html`${Object.entries(queryParams(q)).map(([k, v]) => html`<input type="hidden" name="filter[${k}]" value="${v}">`)}`;
}

interface BulkFormInput {
  query: ListQuery;
  total: number;
  /** The list stopped counting at `total`. */
  totalIsLowerBound: boolean;
  spaces: readonly Choice[];
  values: BulkValues | undefined;
  errors: FieldErrors | undefined;
}

/** The bulk form wraps the table, whose row checkboxes (`ids[]`) are its fields. */
export function bulkForm(view: View, o: BulkFormInput, table: RawHtml): RawHtml {
  const t = view.t.links.list.bulk;
  const scope = o.values?.scope ?? 'selected';
  const idErrors = errorsFor(o.errors, 'ids');
  const radio = (value: BulkScope, label: string, id: string) =>
    html`<label class="check" for="${id}"><input type="radio" id="${id}" name="scope" value="${value}"${scope === value ? html` checked` : ''}${idErrors.length > 0 ? html` aria-describedby="f-ids-error"` : ''}> ${label}</label>`;
  // data-bulk-bar: the script hides the bar until a row is ticked (or the form comes back with an
  // error); without it the bar stays, compact, above the table.
  const shown = o.errors !== undefined && Object.keys(o.errors).length > 0;
  return html`<form method="post" action="/links/bulk-action" novalidate>
${csrfField(view)}${filterFields(o.query)}
<fieldset class="bulk-bar" data-bulk-bar${shown ? html` data-bulk-open` : ''}><legend>${t.legend} <span class="bulk-count" data-bulk-count data-suffix="${t.selectedCount}"></span></legend>
<div class="bulk-controls">
${selectField({
  name: 'action',
  label: t.action,
  value: o.values?.action,
  errors: o.errors,
  options: [
    { value: '', label: t.chooseAction },
    { value: 'delete', label: t.delete },
    { value: 'move', label: t.move },
    { value: 'enable', label: t.enable },
    { value: 'disable', label: t.disable },
    { value: 'export', label: t.export },
  ],
})}
<div class="bulk-space">
${selectField({
  name: 'space',
  label: t.space,
  // Nothing chosen yet: the browser shows the first space.
  value: o.values?.space === undefined ? undefined : o.values.space === null ? '' : String(o.values.space),
  errors: o.errors,
  options: [...o.spaces.map((s) => ({ value: String(s.id), label: s.name })), { value: '', label: t.noSpace }],
})}
</div>
<fieldset class="bulk-scope"><legend>${t.scope}</legend>
${radio('selected', t.selected, 'f-scope')}
${radio('matching', o.totalIsLowerBound ? t.matchingAtLeast(view.fmt.number(o.total)) : t.matching(o.total, view.fmt.number(o.total)), 'f-scope-matching')}
${idErrors.length > 0 ? html`<p class="field-error" id="f-ids-error">${idErrors.join(' ')}</p>` : ''}
${errorsFor(o.errors, 'scope').length > 0 ? html`<p class="field-error">${errorsFor(o.errors, 'scope').join(' ')}</p>` : ''}
</fieldset>
<div class="actions"><button type="submit">${t.submit}</button></div>
</div>
</fieldset>
${table}
</form>`;
}

export interface ConfirmInput {
  query: ListQuery;
  scope: BulkScope;
  ids: readonly number[];
  count: number;
}

/** "Delete N links?": the same fields again with confirm=1, so it works without JavaScript. */
export function confirmDeleteMain(view: View, o: ConfirmInput): RawHtml {
  const t = view.t.links.list.bulk;
  const count = view.fmt.number(o.count);
  return html`<h1>${t.confirmTitle}</h1>
<p>${o.scope === 'matching' ? t.confirmMatching(o.count, count) : t.confirmSelected(o.count, count)}</p>
<form method="post" action="/links/bulk-action" class="actions">
${csrfField(view)}${filterFields(o.query)}
<input type="hidden" name="action" value="delete">
<input type="hidden" name="scope" value="${o.scope}">
${o.scope === 'selected' ? o.ids.map((id) => html`<input type="hidden" name="ids[]" value="${id}">`) : ''}
<input type="hidden" name="confirm" value="1">
<button type="submit" class="danger">${t.confirmButton(o.count, count)}</button>
<a href="${listUrl(o.query)}">${t.cancel}</a>
</form>`;
}
