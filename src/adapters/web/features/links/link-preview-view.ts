import { html, type RawHtml } from '../../../shared/html/html.ts';
import type { View } from '../../app/view.ts';
import type { LinkPreview } from './link-preview.ts';

export interface PreviewCard {
  preview: LinkPreview;
  /** The short URL's QR code as SVG markup; null while the alias is not known. */
  qrSvg: string | null;
}

/** The id of the card's box: the form names it (data-preview) for the script that refreshes it. */
export const PREVIEW_CARD_ID = 'link-preview-card';

function regionName(locale: string, code: string): string {
  return new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' }).of(code) ?? code;
}

/** The card's content: what the preview route answers and what the page starts with. */
export function previewCard(view: View, card: PreviewCard): RawHtml {
  const t = view.t.linkForm.preview;
  const { preview: p } = card;
  const short = p.alias === null ? html`${p.base}/<em>${t.random}</em>` : html`${p.base}/${p.alias}`;
  const shortText = `${p.base}/${p.alias ?? ''}`;
  const seen = p.visitor;
  // Text, never a link: the destination is as typed and not yet checked.
  return html`<dl class="preview-facts">
${
  p.title === null
    ? ''
    : html`<dt>${t.pageTitle}</dt>
<dd class="preview-title">${p.title}</dd>`
}
<dt>${t.shortUrl}</dt>
<dd class="url">${short}${p.alias === null ? html`<span class="hint">${t.randomHint}</span>` : ''}</dd>
<dt>${t.destination}</dt>
<dd class="url">${p.destination ?? html`<span class="hint">${t.noDestination}</span>`}${p.rotating > 1 ? html`<span class="hint">${t.rotation(p.rotating)}</span>` : ''}</dd>
<dt>${t.visitor}</dt>
<dd>${t.country}: ${seen.country === null ? t.unknown : regionName(view.fmt.locale, seen.country)} · ${t.platform}: ${seen.platform ?? t.unknown} · ${t.languages}: ${seen.languages.length > 0 ? seen.languages.join(', ') : t.unknown}</dd>
</dl>
${
  card.qrSvg === null
    ? html`<p class="hint preview-qr">${t.qrLater}</p>`
    : html`<p class="preview-qr"><img src="data:image/svg+xml;base64,${Buffer.from(card.qrSvg).toString('base64')}" alt="${t.qrAlt(shortText)}" width="112" height="112"></p>`
}`;
}

/** The sticky box beside the form (under it on narrow screens). */
export function previewAside(view: View, card: PreviewCard): RawHtml {
  const t = view.t.linkForm.preview;
  return html`<aside class="link-preview" aria-labelledby="link-preview-title">
<h2 id="link-preview-title">${t.title}</h2>
<div id="${PREVIEW_CARD_ID}">${previewCard(view, card)}</div>
<p class="hint" data-preview-note>${t.stale}</p>
</aside>`;
}
