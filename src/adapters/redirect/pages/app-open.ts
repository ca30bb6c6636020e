import type { PixelType } from '../../../core/pixels/pixel.ts';
import { buildCsp } from './csp.ts';
import { html, httpUrl, inlineScript, jsString, raw, urlAttr } from '../../shared/html/html.ts';
import { layout, type Page } from './layout.ts';
import { PIXEL_SNIPPETS, pixelCspSources } from './pixel-snippets.ts';

export interface AppOpenInput {
  /** The app link: a custom scheme on the operator's APP_SCHEMES (checked when it was saved). */
  app: string;
  /** Where the visitor goes when the app does not open: absolute http(s). */
  fallback: string;
  pixels: readonly { type: PixelType; value: string }[];
  nonce: string;
  /** Linked in the footer (the layout's privacyUrl). */
  privacyUrl?: string;
}

/** How long the page waits for the app before the web URL; the app taking the screen cancels it. */
const APP_FALLBACK_MS = 1500;

// Schemes a browser runs or reads locally: never written into the page, whatever was stored.
const UNSAFE = /^(?:javascript|data|vbscript|file|blob|about):/i;

/**
 * The page between a visitor and an app's custom scheme (docs/design/app-schemes.md): it asks the browser to
 * open the app, and if the page is still showing after APP_FALLBACK_MS (no app, or the visitor
 * declined) sends them to the web URL. Without JavaScript both are plain links to choose from.
 */
export function renderAppOpen(input: AppOpenInput): Page {
  const web = httpUrl(input.fallback);
  if (web === null) throw new Error('app page fallback must be an absolute http(s) URL');
  if (UNSAFE.test(input.app.trim())) throw new Error('app page link must not be a script or local scheme');
  const types = [...new Set(input.pixels.map((p) => p.type))];
  const snippets = raw(input.pixels.map((p) => PIXEL_SNIPPETS[p.type](p.value, input.nonce)).join('\n'));
  const script = inlineScript(
    input.nonce,
    `(function(a,w){var gone=false;document.addEventListener('visibilitychange',function(){if(document.hidden)gone=true});
location.href=a;setTimeout(function(){if(!gone)location.replace(w)},${APP_FALLBACK_MS})})(${jsString(input.app)},${jsString(web)});`,
  );
  const main = html`<h1>Opening the app…</h1>
<p><a href="${input.app}">Open in the app</a></p>
<p>No app? <a href="${urlAttr(web)}">Continue to <span class="url">${new URL(web).host}</span></a>.</p>`;
  const sources = pixelCspSources(types);
  return {
    html: layout({
      title: 'Opening the app…',
      nonce: input.nonce,
      privacyUrl: input.privacyUrl,
      main,
      tail: html`${snippets}\n${script}`,
    }),
    csp: buildCsp(input.nonce, { ...sources, script: sources.script ?? [] }),
  };
}
