import type { FieldErrors } from '../../../core/shared/errors.ts';
import { html, type RawHtml } from '../../shared/html/html.ts';
import { CSRF_FIELD } from '../app/csrf.ts';
import type { View } from '../app/view.ts';

/** The id of a field's control, from its form name (`country[0][key]` → `f-country-0-key`). */
export function fieldId(name: string): string {
  return `f-${name
    .replace(/\]\[|\[|\]/g, '-')
    .replace(/-+$/, '')
    .replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

/**
 * The errors of one field. Core rules name fields as the API does (`country.0.key`), forms as
 * browsers send them (`country[0][key]`): both spellings are looked up.
 */
export function errorsFor(errors: FieldErrors | undefined, name: string): string[] {
  if (!errors) return [];
  const dotted = name
    .replace(/\]\[|\[/g, '.')
    .replace(/\]$/, '')
    .replace(/\.$/, '');
  return [...(errors[name] ?? []), ...(dotted !== name ? (errors[dotted] ?? []) : [])];
}

export function csrfField(view: View): RawHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${view.csrf}">`;
}

/**
 * The list of every problem at the top of a form, each linking to its field; it takes focus
 * (`autofocus`, no script needed) so a screen reader reads it first after a failed submit.
 */
export function errorSummary(
  view: View,
  errors: FieldErrors | undefined,
  fieldNames: Record<string, string> = {},
): RawHtml {
  if (!errors || Object.keys(errors).length === 0) return html``;
  const items = Object.entries(errors).flatMap(([field, list]) => {
    const name = fieldNames[field] ?? field.replace(/\.(\d+|\w+)/g, '[$1]');
    return list.map((message) => html`<li><a href="#${fieldId(name)}">${message}</a></li>`);
  });
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1" autofocus>
<h2 id="error-summary-title">${view.t.common.errorSummaryTitle}</h2>
<ul>${items}</ul>
</div>`;
}

interface FieldBase {
  name: string;
  label: string;
  errors?: FieldErrors | undefined;
  hint?: string | undefined;
  required?: boolean;
  /** The control's id, when the name does not give a unique one. */
  id?: string;
}

function describedBy(id: string, hint: string | undefined, errors: string[]): string | null {
  const ids = [hint ? `${id}-hint` : null, errors.length > 0 ? `${id}-error` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : null;
}

/** What every control says of itself: whether it must be filled, and whether and why it is wrong. */
function validity(o: FieldBase, id: string, errors: string[]) {
  return {
    required: o.required ?? false,
    'aria-invalid': errors.length > 0 ? 'true' : null,
    'aria-describedby': describedBy(id, o.hint, errors),
  };
}

function fieldShell(id: string, label: string, hint: string | undefined, errors: string[], control: RawHtml): RawHtml {
  return html`<div class="field">
<label for="${id}">${label}</label>
${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
${control}
${errors.length > 0 ? html`<p class="field-error" id="${id}-error">${errors.join(' ')}</p>` : ''}
</div>`;
}

function attrs(values: Record<string, string | number | boolean | null | undefined>): RawHtml {
  return html`${Object.entries(values).map(([k, v]) => (v === null || v === undefined || v === false ? '' : v === true ? html` ${k}` : html` ${k}="${v}"`))}`;
}

export interface TextFieldOptions extends FieldBase {
  value?: string | number | null | undefined;
  type?: 'text' | 'email' | 'password' | 'url' | 'number' | 'date' | 'time' | 'datetime-local' | 'search' | 'color';
  autocomplete?: string;
  inputmode?: string;
  placeholder?: string;
  min?: number;
  max?: number;
  maxlength?: number;
  /** A <datalist>'s id: suggestions the field still lets one type past. */
  list?: string;
  /** Shown and sent but not editable (an address an invitation fixed). */
  readonly?: boolean;
  /**
   * A password field's value as typed in the form this page answers (a row button's round
   * trip): passwords are otherwise never put back, and this only ever goes into a POST answer.
   */
  typedPassword?: string | undefined;
}

export function textField(o: TextFieldOptions): RawHtml {
  const id = o.id ?? fieldId(o.name);
  const errors = errorsFor(o.errors, o.name);
  const control = html`<input${attrs({
    id,
    name: o.name,
    type: o.type ?? 'text',
    value: o.type === 'password' ? o.typedPassword || null : (o.value ?? null),
    autocomplete: o.autocomplete ?? null,
    inputmode: o.inputmode ?? null,
    placeholder: o.placeholder ?? null,
    min: o.min ?? null,
    max: o.max ?? null,
    maxlength: o.maxlength ?? null,
    list: o.list ?? null,
    readonly: o.readonly ?? false,
    ...validity(o, id, errors),
  })}>`;
  return fieldShell(id, o.label, o.hint, errors, control);
}

export interface TextAreaOptions extends FieldBase {
  value?: string | null | undefined;
  rows?: number;
}

export function textArea(o: TextAreaOptions): RawHtml {
  const id = o.id ?? fieldId(o.name);
  const errors = errorsFor(o.errors, o.name);
  const control = html`<textarea${attrs({
    id,
    name: o.name,
    rows: o.rows ?? 6,
    ...validity(o, id, errors),
  })}>${o.value ?? ''}</textarea>`;
  return fieldShell(id, o.label, o.hint, errors, control);
}

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldOptions extends FieldBase {
  options: readonly SelectOption[];
  /** The selected value(s). */
  value?: string | readonly string[] | null | undefined;
  multiple?: boolean;
}

export function selectField(o: SelectFieldOptions): RawHtml {
  const id = o.id ?? fieldId(o.name);
  const errors = errorsFor(o.errors, o.name);
  const selected = new Set(
    o.value === null || o.value === undefined ? [] : typeof o.value === 'string' ? [o.value] : o.value,
  );
  const control = html`<select${attrs({
    id,
    name: o.name,
    multiple: o.multiple ?? false,
    ...validity(o, id, errors),
  })}>${o.options.map((opt) => html`<option value="${opt.value}"${selected.has(opt.value) ? html` selected` : ''}>${opt.label}</option>`)}</select>`;
  return fieldShell(id, o.label, o.hint, errors, control);
}

export interface CheckboxOptions extends FieldBase {
  checked: boolean;
  value?: string;
}

/** A checkbox after its label's text; a hidden "0" first, so an unticked box still sends its name. */
export function checkbox(o: CheckboxOptions & { uncheckedValue?: string }): RawHtml {
  const id = o.id ?? fieldId(o.name);
  const errors = errorsFor(o.errors, o.name);
  return html`<div class="field">
${o.uncheckedValue !== undefined ? html`<input type="hidden" name="${o.name}" value="${o.uncheckedValue}">` : ''}
<label class="check" for="${id}"><input${attrs({
    id,
    type: 'checkbox',
    name: o.name,
    value: o.value ?? '1',
    checked: o.checked,
    'aria-invalid': errors.length > 0 ? 'true' : null,
    'aria-describedby': describedBy(id, o.hint, errors),
  })}> ${o.label}</label>
${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : ''}
${errors.length > 0 ? html`<p class="field-error" id="${id}-error">${errors.join(' ')}</p>` : ''}
</div>`;
}

/** A button that copies text once app.js runs (hidden until then: it cannot work without it). */
export function copyButton(view: View, text: string, label: string = view.t.common.copy): RawHtml {
  return html`<button type="button" class="secondary" data-copy="${text}" data-copied="${view.t.common.copied}" aria-label="${label}: ${text}" hidden>${view.t.common.copy}</button>`;
}

/** A one-button form that posts (with its CSRF token): deletes, revokes, sign-outs. */
export function postButton(
  view: View,
  action: string,
  label: string,
  options: { danger?: boolean; secondary?: boolean; hidden?: Record<string, string>; accessibleName?: string } = {},
): RawHtml {
  const hidden = Object.entries(options.hidden ?? {}).map(
    ([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`,
  );
  return html`<form method="post" action="${action}" class="inline">${csrfField(view)}${hidden}<button type="submit"${options.danger ? html` class="danger"` : options.secondary ? html` class="secondary"` : ''}${options.accessibleName ? html` aria-label="${options.accessibleName}"` : ''}>${label}</button></form>`;
}

export interface PagerInput {
  page: number;
  perPage: number;
  total: number;
  /** The list stopped counting at `total`: pages go on while a page is full. */
  totalIsLowerBound?: boolean;
  /** How many items this page holds (needed when the total is a lower bound). */
  shown?: number;
  /** The page's URL for another page number (keeps every other query parameter). */
  hrefFor(page: number): string;
}

export function pagination(view: View, p: PagerInput): RawHtml {
  const t = view.t.common.pagination;
  const last = Math.max(1, Math.ceil(p.total / p.perPage));
  if (p.total === 0) return html``;
  const from = (p.page - 1) * p.perPage + 1;
  if (p.totalIsLowerBound) {
    const shown = p.shown ?? p.perPage;
    return html`<nav class="pagination" aria-label="${t.label}"><ul>
<li>${t.showingOfAtLeast(from, from + shown - 1, view.fmt.number(p.total))}</li>
${p.page > 1 ? html`<li><a href="${p.hrefFor(p.page - 1)}" rel="prev">${t.previous}</a></li>` : ''}
<li aria-current="page">${t.pageOfMany(p.page)}</li>
${shown === p.perPage ? html`<li><a href="${p.hrefFor(p.page + 1)}" rel="next">${t.next}</a></li>` : ''}
</ul></nav>`;
  }
  const to = Math.min(p.total, p.page * p.perPage);
  return html`<nav class="pagination" aria-label="${t.label}"><ul>
<li>${t.showing(from, to, p.total)}</li>
${p.page > 1 ? html`<li><a href="${p.hrefFor(p.page - 1)}" rel="prev">${t.previous}</a></li>` : ''}
${last > 1 ? html`<li aria-current="page">${t.page(p.page, last)}</li>` : ''}
${p.page < last ? html`<li><a href="${p.hrefFor(p.page + 1)}" rel="next">${t.next}</a></li>` : ''}
</ul></nav>`;
}

/** A URL with some query parameters replaced (undefined or '' removes one). */
export function withQuery(
  path: string,
  query: Record<string, string | number | undefined>,
  changes: Record<string, string | number | undefined>,
): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...query, ...changes }))
    if (v !== undefined && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

export type BadgeTone = 'ok' | 'warn' | 'danger' | 'neutral';

/** A short status word in a tinted pill: never the only sign (its text says it). */
export function badge(text: string, tone: BadgeTone = 'neutral'): RawHtml {
  return html`<span class="badge badge-${tone}">${text}</span>`;
}

/** A removable filter: a link to the same list without it, named for what it removes. */
export function removableChip(text: string, href: string, removeLabel: string): RawHtml {
  return html`<a class="chip chip-removable" href="${href}" aria-label="${text}, ${removeLabel}">${text}<span class="chip-x" aria-hidden="true">×</span></a>`;
}

/** What a list shows when it has nothing yet: what goes here, and the one action that fills it. */
export function emptyState(o: {
  id: string;
  title: string;
  text: string;
  action?: { href: string; label: string };
}): RawHtml {
  return html`<section class="empty-state" aria-labelledby="${o.id}"><h2 id="${o.id}">${o.title}</h2>
<p>${o.text}</p>${o.action ? html`<p><a class="button" href="${o.action.href}">${o.action.label}</a></p>` : ''}</section>`;
}
