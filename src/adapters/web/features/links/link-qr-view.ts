import type { FieldErrors } from '../../../../core/shared/errors.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { errorSummary, selectField, textField, withQuery } from '../../ui/components.ts';
import type { View } from '../../app/view.ts';
import { HEX_COLOUR, contrastRatio, hasLowContrast, relativeLuminance } from './qr-contrast.ts';
import { qrLogoForms } from './link-qr-logo-view.ts';

/** The QR settings as the form holds them (text: a refused value is shown as typed). */
export interface QrSettings {
  size: string;
  margin: string;
  foreground: string;
  background: string;
  ecc: string;
  style: string;
}

export interface QrPageInput {
  id: number;
  shortUrl: string;
  settings: QrSettings;
  errors?: FieldErrors | undefined;
  /** The code as SVG markup; null when the settings were refused. */
  svg: string | null;
  /** The link's logo, if it has one. */
  logo: 'png' | 'svg' | null;
}

// The script (qr.js) redraws these as the colours change, from the same formula and the
// templates on the box, so the ratio shown is always the colours picked, not the page's first.
function warnings(view: View, s: QrSettings): RawHtml {
  const t = view.t.linkForm.qr;
  const out: RawHtml[] = [];
  if (HEX_COLOUR.test(s.foreground) && HEX_COLOUR.test(s.background)) {
    const ratio = contrastRatio(s.foreground, s.background).toFixed(2);
    if (hasLowContrast(s.foreground, s.background)) out.push(html`<p class="qr-warning">${t.lowContrast(ratio)}</p>`);
    else out.push(html`<p class="hint">${t.contrast(ratio)}</p>`);
    if (relativeLuminance(s.foreground) > relativeLuminance(s.background))
      out.push(html`<p class="qr-warning">${t.inverted}</p>`);
  }
  return html`<div class="qr-warnings" role="status" data-qr-warnings data-low="${t.lowContrast(RATIO)}" data-ok="${t.contrast(RATIO)}" data-inverted="${t.inverted}">${out}</div>`;
}

/** Where the script puts the ratio in the templates. */
const RATIO = '{ratio}';

/** The settings as a query: the downloads', the preview's, and the logo forms' way back. */
export function qrQuery(s: QrSettings): Record<string, string> {
  return {
    size: s.size,
    margin: s.margin,
    foreground: s.foreground,
    background: s.background,
    ecc: s.ecc,
    style: s.style,
  };
}

function downloads(view: View, p: QrPageInput, query: Record<string, string>): RawHtml {
  const t = view.t.linkForm.qr;
  // An SVG logo is drawn only into an SVG (docs/design/qr.md): the PNG link would only be refused.
  const png =
    p.logo === 'svg'
      ? html`<p class="hint" id="qr-png-hint">${t.pngNeedsPngLogo}</p>`
      : html`<a class="button" href="${withQuery(`/links/${p.id}/qr.png`, query, {})}" download data-qr-download="png">${t.png}</a>`;
  return html`<p class="actions">${png}
<a class="button secondary" href="${withQuery(`/links/${p.id}/qr.svg`, query, {})}" download data-qr-download="svg">${t.svg}</a></p>`;
}

export function qrPage(view: View, p: QrPageInput): RawHtml {
  const t = view.t.linkForm.qr;
  const s = p.settings;
  const query = qrQuery(s);
  // `<input type="color">` shows only a valid #rrggbb; a refused value is named in the error instead.
  const colour = (v: string, fallback: string) => (HEX_COLOUR.test(v) ? v.toLowerCase() : fallback);
  const preview = p.svg
    ? html`<figure class="qr-preview"><img src="data:image/svg+xml;base64,${Buffer.from(p.svg).toString('base64')}" alt="${t.alt(p.shortUrl)}" width="${s.size}" height="${s.size}" data-qr-preview="/links/${p.id}/qr.svg"></figure>
${warnings(view, s)}
${downloads(view, p, query)}`
    : html``;
  const levels = (['L', 'M', 'Q', 'H'] as const).map((value) => ({ value, label: t.levels[value] }));
  const styles = (['square', 'rounded'] as const).map((value) => ({ value, label: t.styles[value] }));
  return html`<h1>${t.title}</h1>
<p><a class="url" href="${p.shortUrl}">${p.shortUrl}</a>${view.can('links.write') ? html` · <a href="/links/${p.id}/edit">${view.t.linkForm.editTitle}</a>` : ''}</p>
${errorSummary(view, p.errors)}
<div class="qr-layout">
<div class="qr-result">${preview}</div>
<div class="qr-controls">
<form method="get" action="/links/${p.id}/qr" class="stack qr-settings" novalidate data-qr-settings>
<h2>${t.settings}</h2>
${textField({ name: 'size', label: t.size, type: 'number', min: 64, max: 2048, value: s.size, errors: p.errors, inputmode: 'numeric' })}
${textField({ name: 'margin', label: t.margin, type: 'number', min: 0, max: 16, value: s.margin, errors: p.errors, inputmode: 'numeric' })}
${textField({ name: 'foreground', label: t.foreground, type: 'color', value: colour(s.foreground, '#000000'), errors: p.errors })}
${textField({ name: 'background', label: t.background, type: 'color', value: colour(s.background, '#ffffff'), errors: p.errors })}
${selectField({ name: 'ecc', label: t.ecc, hint: p.logo ? t.eccWithLogo : t.eccHint, options: levels, value: s.ecc, errors: p.errors })}
${selectField({ name: 'style', label: t.style, options: styles, value: s.style, errors: p.errors })}
<div class="actions"><button type="submit">${t.apply}</button></div>
</form>
${view.can('links.write') ? qrLogoForms(view, p.id, p.logo, query, p.errors) : ''}
</div>
</div>`;
}
