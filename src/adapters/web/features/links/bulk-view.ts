import type { FieldErrors } from '../../../../core/shared/errors.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { checkbox, csrfField, errorSummary, errorsFor, selectField, textArea, textField } from '../../ui/components.ts';
import type { OwnedChoices } from '../../ui/owned-choices.ts';
import { listOf, textOf, type PostedForm } from '../../ui/posted-form.ts';
import type { View } from '../../app/view.ts';
import { BULK_MAX_LINES } from './bulk-input.ts';
import { encodeResults, type BulkRow } from './bulk-result.ts';

/** A file input in the components' shape (label, hint, error, described by both). */
function fileField(view: View, errors: FieldErrors | undefined, hadErrors: boolean): RawHtml {
  const b = view.t.bulk;
  const id = 'f-file';
  const messages = errorsFor(errors, 'file');
  const hint = hadErrors ? `${b.fileHint(BULK_MAX_LINES)} ${b.fileAgain}` : b.fileHint(BULK_MAX_LINES);
  const described = [`${id}-hint`, messages.length > 0 ? `${id}-error` : null].filter(Boolean).join(' ');
  return html`<div class="field">
<label for="${id}">${b.file}</label>
<p class="hint" id="${id}-hint">${hint}</p>
<input id="${id}" name="file" type="file" accept=".csv,text/csv" aria-describedby="${described}"${messages.length > 0 ? html` aria-invalid="true"` : ''}>
${messages.length > 0 ? html`<p class="field-error" id="${id}-error">${messages.join(' ')}</p>` : ''}
</div>`;
}

/**
 * The form posts as multipart (it may carry a file); its CSRF token is a field of the body like
 * every form's, checked once the route has read it (never in the URL, where logs keep it).
 */
export function bulkForm(view: View, choices: OwnedChoices, values: PostedForm = {}, errors?: FieldErrors): RawHtml {
  const b = view.t.bulk;
  const hadErrors = errors !== undefined && Object.keys(errors).length > 0;
  return html`<h1>${b.title}</h1>
<p>${b.intro}</p>
${errorSummary(view, errors)}
<form method="post" action="/links/bulk" enctype="multipart/form-data" class="stack" novalidate>
${csrfField(view)}
${textArea({ name: 'urls', label: b.urls, hint: b.urlsHint(BULK_MAX_LINES), value: textOf(values, 'urls'), errors, rows: 10 })}
${fileField(view, errors, hadErrors)}
<fieldset>
<legend>${b.options}</legend>
${selectField({ name: 'domain', label: b.domain, options: choices.domains, value: textOf(values, 'domain'), errors })}
${selectField({ name: 'space', label: b.space, options: choices.spaces, value: textOf(values, 'space'), errors })}
${
  choices.pixels.length > 0
    ? selectField({
        name: 'pixels[]',
        label: b.pixels,
        hint: b.pixelsHint,
        options: choices.pixels,
        value: listOf(values, 'pixels'),
        multiple: true,
        errors,
      })
    : ''
}
${checkbox({ name: 'disabled', label: b.disabled, checked: textOf(values, 'disabled') === '1', errors })}
${textField({ name: 'expiration_date', label: b.expirationDate, type: 'date', hint: b.expirationHint, value: textOf(values, 'expiration_date'), errors })}
${textField({ name: 'expiration_time', label: b.expirationTime, type: 'time', value: textOf(values, 'expiration_time'), errors })}
${textField({ name: 'expiration_clicks', label: b.expirationClicks, type: 'number', min: 0, hint: b.expirationClicksHint, value: textOf(values, 'expiration_clicks'), errors })}
</fieldset>
<div class="actions"><button type="submit">${b.submit}</button></div>
</form>`;
}

function resultCell(row: BulkRow): RawHtml {
  if (row.shortUrl !== null) return html`<a href="${row.shortUrl}" class="url">${row.shortUrl}</a>`;
  return html`${row.errors.map((message) => html`<p class="field-error">${message}</p>`)}`;
}

/** The result, row by row; the CSV download posts the rows back (nothing is kept on the server). */
export function bulkResult(view: View, rows: readonly BulkRow[]): RawHtml {
  const b = view.t.bulk;
  const shortUrls = rows.flatMap((r) => (r.shortUrl === null ? [] : [r.shortUrl]));
  const all = shortUrls.join('\n');
  return html`<h1>${b.resultTitle}</h1>
<p role="status">${b.summary(shortUrls.length, rows.length - shortUrls.length)}</p>
<div class="actions">
${shortUrls.length > 0 ? html`<button type="button" class="secondary" data-copy="${all}" data-copied="${view.t.common.copied}" hidden>${b.copyAll}</button>` : ''}
<form method="post" action="/links/bulk/result.csv" class="inline">
${csrfField(view)}<input type="hidden" name="results" value="${encodeResults(rows)}">
<button type="submit" class="secondary">${b.downloadCsv}</button>
</form>
<a href="/links/bulk">${b.again}</a>
</div>
<div class="table-wrap"><table>
<caption>${b.tableCaption}</caption>
<thead><tr><th scope="col" class="num">${b.line}</th><th scope="col">${b.url}</th><th scope="col">${b.result}</th></tr></thead>
<tbody>${rows.map((r) => html`<tr><td class="num">${r.line}</td><td class="url">${r.url}</td><td>${resultCell(r)}</td></tr>`)}</tbody>
</table></div>
${
  shortUrls.length > 0
    ? html`<div class="field">
<label for="all-short-urls">${b.allShortUrls}</label>
<textarea id="all-short-urls" rows="${Math.min(10, shortUrls.length)}" readonly>${all}</textarea>
</div>`
    : ''
}`;
}
