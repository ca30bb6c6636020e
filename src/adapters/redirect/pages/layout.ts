import { assertNonce } from './csp.ts';
import { html, raw, type RawHtml } from '../../shared/html/html.ts';

/** What every visitor page returns: the markup and the CSP header value to send with it. */
export interface Page {
  html: string;
  csp: string;
}

export interface LayoutInput {
  title: string;
  nonce: string;
  /** Content of <main>. */
  main: RawHtml;
  /** Extra elements for <head> (e.g. a <noscript> refresh). */
  head?: RawHtml;
  /** Elements after <main> (e.g. pixel snippets and the redirect script). */
  tail?: RawHtml;
  /** The app's privacy page (APP_URL/privacy: a custom domain's /privacy would be an alias), linked in the footer. */
  privacyUrl?: string;
}

// Kept inline (with the nonce) so a page is one response: nothing else to serve, cache or allow.
// --border outlines the text fields, so it keeps 3:1 against --bg in both themes (WCAG 1.4.11).
const STYLE = `
:root{color-scheme:light dark;--fg:#1b1b1f;--bg:#f7f7f8;--muted:#55555c;--accent:#0b57d0;--on-accent:#fff;--border:#7c7c84;--error:#b3261e}
@media (prefers-color-scheme:dark){:root{--fg:#ececf1;--bg:#151518;--muted:#a9a9b3;--accent:#8ab4f8;--on-accent:#151518;--border:#75757d;--error:#f2b8b5}}
*{box-sizing:border-box}
body{margin:0;color:var(--fg);background:var(--bg);font:1.0625rem/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:36rem;margin:12vh auto 3rem;padding:0 1.25rem}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 .75rem}
p{margin:0 0 1rem}
a{color:var(--accent)}
.muted{color:var(--muted)}
.url{overflow-wrap:anywhere;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.95em}
dl{margin:1.25rem 0}dt{font-weight:600;margin-top:.75rem}dd{margin:0}
form{margin:1.5rem 0}
label{display:block;font-weight:600;margin-bottom:.35rem}
input{font:inherit;width:100%;padding:.55rem .7rem;border:1px solid var(--border);border-radius:.4rem;background:transparent;color:inherit}
button{font:inherit;padding:.55rem 1.1rem;border:1px solid var(--accent);border-radius:.4rem;background:var(--accent);color:var(--on-accent);cursor:pointer}
button.secondary{background:transparent;color:var(--accent)}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1rem}
.error{color:var(--error);font-weight:600}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
footer{max-width:36rem;margin:0 auto 2rem;padding:0 1.25rem;font-size:.95rem}
footer a{display:inline-block;padding:.25rem 0}
`.trim();

/** The shared page shell: English, not indexed, readable without JavaScript. */
export function layout(input: LayoutInput): string {
  assertNonce(input.nonce);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${input.title}</title>
<style nonce="${input.nonce}">${raw(STYLE)}</style>
${input.head}
</head>
<body>
<main>
${input.main}
</main>
${input.privacyUrl === undefined ? '' : html`<footer><a href="${input.privacyUrl}">Privacy</a></footer>`}
${input.tail}
</body>
</html>
`.toString();
}
