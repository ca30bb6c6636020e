import type { FieldErrors } from '../../../../core/shared/errors.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { csrfField, errorsFor, postButton } from '../../ui/components.ts';
import type { View } from '../../app/view.ts';

/** The settings kept as hidden fields, so a logo's upload or removal comes back to the same code. */
function keptSettings(query: Record<string, string>): RawHtml {
  return html`${Object.entries(query).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}`;
}

/** The logo's upload form (multipart, its CSRF token in the body) and, with a logo, its removal. */
export function qrLogoForms(
  view: View,
  id: number,
  logo: 'png' | 'svg' | null,
  query: Record<string, string>,
  errors: FieldErrors | undefined,
): RawHtml {
  const t = view.t.linkForm.qr;
  const messages = errorsFor(errors, 'logo');
  const described = ['qr-logo-hint', messages.length > 0 ? 'qr-logo-error' : null].filter(Boolean).join(' ');
  const current = logo ? html`<p>${t.logoCurrent(logo.toUpperCase())}</p>` : html`<p>${t.logoNone}</p>`;
  const remove = logo
    ? postButton(view, `/links/${id}/qr/logo/remove`, t.logoRemove, { hidden: query, danger: true })
    : html``;
  return html`<section class="stack qr-logo" aria-labelledby="qr-logo-title">
<h2 id="qr-logo-title">${t.logo}</h2>
${current}
<form method="post" action="/links/${id}/qr/logo" enctype="multipart/form-data" class="stack" novalidate>
${csrfField(view)}${keptSettings(query)}
<div class="field">
<label for="qr-logo">${t.logoFile}</label>
<p class="hint" id="qr-logo-hint">${t.logoHint}</p>
<input id="qr-logo" name="logo" type="file" accept="image/png,image/svg+xml" aria-describedby="${described}"${messages.length > 0 ? html` aria-invalid="true"` : ''}>
${messages.length > 0 ? html`<p class="field-error" id="qr-logo-error">${messages.join(' ')}</p>` : ''}
</div>
<div class="actions"><button type="submit" class="secondary">${t.logoUpload}</button></div>
</form>
${remove}
</section>`;
}
