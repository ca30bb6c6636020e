import type { FieldErrors } from '../../../../core/shared/errors.ts';
import { ON_CONFLICT, type ImportOutcome } from '../../../../core/links/import/import-row.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { csrfField, errorSummary, errorsFor, selectField } from '../../ui/components.ts';
import { textOf, type PostedForm } from '../../ui/posted-form.ts';
import type { View } from '../../app/view.ts';

/** The report the importer answers (docs/api.md §15), as the page reads it. */
export interface ImportPageReport {
  format: string;
  columns?: Record<string, string | null>;
  ignored_columns?: string[];
  warnings: string[];
  dry_run: boolean;
  counts: Record<string, number>;
  random_aliases: number;
  rows: ImportOutcome[];
  rows_omitted: number;
}

export interface ImportFormChoices {
  formats: readonly string[];
  maxBytes: number;
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

function formatOptions(view: View, formats: readonly string[]) {
  const t = view.t.imports;
  return [{ value: '', label: t.auto }, ...formats.map((f) => ({ value: f, label: t.formatNames[f] ?? f }))];
}

function conflictOptions(view: View) {
  return ON_CONFLICT.map((c) => ({ value: c, label: view.t.imports.conflict[c] ?? c }));
}

/** A file input in the components' shape (label, hint, error, described by both). */
function fileField(view: View, maxBytes: number, errors: FieldErrors | undefined, hadErrors: boolean): RawHtml {
  const t = view.t.imports;
  const id = 'f-file';
  const messages = errorsFor(errors, 'file');
  const hint = hadErrors ? `${t.fileHint(megabytes(maxBytes))} ${t.fileAgain}` : t.fileHint(megabytes(maxBytes));
  const described = [`${id}-hint`, messages.length > 0 ? `${id}-error` : null].filter(Boolean).join(' ');
  return html`<div class="field">
<label for="${id}">${t.file}</label>
<p class="hint" id="${id}-hint">${hint}</p>
<input id="${id}" name="file" type="file" accept=".csv,.json,.sql,text/csv,application/json" aria-describedby="${described}"${messages.length > 0 ? html` aria-invalid="true"` : ''}>
${messages.length > 0 ? html`<p class="field-error" id="${id}-error">${messages.join(' ')}</p>` : ''}
</div>`;
}

/**
 * The upload form. It posts as multipart, its CSRF token a field of the body like every form's
 * (checked once the route has read it); the dry run is the first button, so Enter previews.
 */
export function importForm(
  view: View,
  choices: ImportFormChoices,
  values: PostedForm = {},
  errors?: FieldErrors,
): RawHtml {
  const t = view.t.imports;
  const hadErrors = errors !== undefined && Object.keys(errors).length > 0;
  return html`<h1>${t.title}</h1>
<p>${t.intro}</p>
${errorSummary(view, errors)}
<form method="post" action="/links/import" enctype="multipart/form-data" class="stack" novalidate>
${csrfField(view)}
${fileField(view, choices.maxBytes, errors, hadErrors)}
${selectField({ name: 'format', label: t.format, hint: t.formatHint, options: formatOptions(view, choices.formats), value: textOf(values, 'format'), errors })}
${selectField({ name: 'on_conflict', label: t.onConflict, options: conflictOptions(view), value: textOf(values, 'on_conflict') || 'skip', errors })}
<div class="actions"><button type="submit" name="mode" value="preview">${t.preview}</button><button type="submit" name="mode" value="import" class="secondary">${t.importNow}</button></div>
</form>`;
}

function countsList(view: View, report: ImportPageReport): RawHtml {
  const t = view.t.imports;
  const order = ['created', 'renamed', 'replaced', 'skipped', 'error'];
  return html`<dl class="cards">${order.map(
    (s) =>
      html`<div class="card"><dt>${t.status[s]}</dt><dd class="value" data-count="${s}">${view.fmt.number(report.counts[s] ?? 0)}</dd></div>`,
  )}</dl>`;
}

function columnsPart(view: View, report: ImportPageReport): RawHtml {
  const t = view.t.imports;
  if (!report.columns) return html``;
  const read = Object.values(report.columns).filter((c): c is string => c !== null);
  const ignored = report.ignored_columns ?? [];
  return html`<h2>${t.columns}</h2>
<p>${read.join(', ')}</p>
<h2>${t.ignoredColumns}</h2>
<p data-ignored>${ignored.length > 0 ? ignored.join(', ') : t.noIgnored}</p>`;
}

/** What the report says of a row: its reason (which names a refused row's fields), else its fields' messages, then its notes. */
function rowDetails(row: ImportOutcome): string {
  const errors = Object.entries(row.errors ?? {}).map(([field, list]) => `${field}: ${list.join(' ')}`);
  const why = row.reason ? [row.reason] : errors;
  return [...why, ...(row.notes ?? [])].join(' ');
}

function rowsTable(view: View, report: ImportPageReport): RawHtml {
  const t = view.t.imports;
  if (report.rows.length === 0) return html``;
  // Focusable and named: a table wider than the screen scrolls by keyboard too.
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${t.tableCaption}"><table>
<caption>${t.tableCaption}</caption>
<thead><tr><th scope="col" class="num">${t.line}</th><th scope="col">${t.alias}</th><th scope="col">${t.result}</th><th scope="col">${t.details}</th></tr></thead>
<tbody>${report.rows.map(
    (r) =>
      html`<tr><td class="num">${r.line}</td><td class="url">${r.alias ?? ''}</td><td>${t.rowStatus[r.status] ?? r.status}</td><td>${rowDetails(r)}</td></tr>`,
  )}</tbody>
</table></div>
${report.rows_omitted > 0 ? html`<p>${t.omitted(report.rows_omitted)}</p>` : ''}`;
}

/** The confirmation of a dry run: the kept file's token and the options, posted form-encoded. */
function confirmForm(view: View, kept: { token: string; format: string; onConflict: string }): RawHtml {
  const t = view.t.imports;
  return html`<form method="post" action="/links/import/run" class="stack">
${csrfField(view)}<input type="hidden" name="upload" value="${kept.token}"><input type="hidden" name="format" value="${kept.format}"><input type="hidden" name="on_conflict" value="${kept.onConflict}">
<p class="hint">${t.confirmHint}</p>
<div class="actions"><button type="submit">${t.confirm}</button><a href="/links/import">${t.again}</a></div>
</form>`;
}

/** A dry run's or an import's report; a dry run ends in the form that imports the same file. */
export function importReport(
  view: View,
  report: ImportPageReport,
  kept?: { token: string; format: string; onConflict: string },
): RawHtml {
  const t = view.t.imports;
  const title = report.dry_run ? t.dryRunTitle : t.reportTitle;
  return html`<h1>${title}</h1>
${report.dry_run ? html`<p>${t.dryRunIntro}</p>` : ''}
<div role="status">
<p>${t.formatRead}: ${t.formatNames[report.format] ?? report.format}</p>
${countsList(view, report)}
${report.random_aliases > 0 ? html`<p>${t.randomAliases(report.random_aliases)}</p>` : ''}
</div>
${report.warnings.length > 0 ? html`<h2>${t.warnings}</h2><ul>${report.warnings.map((w) => html`<li>${w}</li>`)}</ul>` : ''}
${columnsPart(view, report)}
${rowsTable(view, report)}
${kept ? confirmForm(view, kept) : html`<div class="actions"><a class="button" href="/links">${t.toLinks}</a><a href="/links/import">${t.again}</a></div>`}`;
}
