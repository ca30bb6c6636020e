import { buildCsp } from './csp.ts';
import { html, httpUrl } from '../../shared/html/html.ts';
import { layout, type Page } from './layout.ts';

export interface PreviewPageInput {
  nonce: string;
  /** The short URL as visitors see it, e.g. https://lnk.example/abc. */
  shortUrl: string;
  destination: string;
  /** The destination's page title, when it was fetched. */
  title?: string | null;
}

/**
 * `/{alias}/+`: where a short link leads, without going there (and without counting a click).
 * The destination is shown as text in full; it is a link only when it is a web address, so a
 * stored javascript: or data: URL can be read but never followed from here.
 */
export function renderPreview(input: PreviewPageInput): Page {
  const href = httpUrl(input.destination);
  const title = input.title?.trim() ? input.title.trim() : null;
  const main = html`<h1>Where this link goes</h1>
<p class="muted">Check the destination before you visit it.</p>
<dl>
<dt>Short link</dt>
<dd class="url">${input.shortUrl}</dd>
${
  title !== null &&
  html`<dt>Page title</dt>
<dd>${title}</dd>`
}
<dt>Destination</dt>
<dd class="url">${input.destination}</dd>
</dl>
${
  href !== null
    ? html`<p><a href="${href}" rel="noopener noreferrer nofollow">Go to the destination</a></p>`
    : html`<p class="muted">This destination is not a web address, so no link to it is offered.</p>`
}`;
  return { html: layout({ title: 'Link preview', nonce: input.nonce, main }), csp: buildCsp(input.nonce) };
}
