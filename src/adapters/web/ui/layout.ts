import { html, type RawHtml } from '../pages/html.ts';
import type { View } from '../app/view.ts';
import { ASSETS } from './assets.ts';
import { csrfField } from './components.ts';
import { BRAND_COLOUR } from './brand.ts';
import { FAVICON_SVG_PATH, MANIFEST_PATH } from './brand-routes.ts';

export interface AppPage {
  /** The page's own name; the document title adds the app's. */
  title: string;
  main: RawHtml;
  /** Which navigation item is current (its path), if any. */
  section?: string;
  /** A narrow column (sign-in forms). */
  narrow?: boolean;
}

function navItem(view: View, href: string, label: string, section: string | undefined) {
  return html`<li><a href="${href}"${section === href ? html` aria-current="page"` : ''}>${label}</a></li>`;
}

function navigation(view: View, section: string | undefined): RawHtml {
  const n = view.t.common.nav;
  if (!view.account) {
    return html`<nav class="site-nav" aria-label="${n.label}"><ul>${navItem(view, '/login', n.signIn, section)}${navItem(view, '/signup', n.signUp, section)}</ul></nav>`;
  }
  const items = [
    navItem(view, '/dashboard', n.dashboard, section),
    navItem(view, '/links', n.links, section),
    navItem(view, '/pixels', n.pixels, section),
    navItem(view, '/spaces', n.spaces, section),
    navItem(view, '/domains', n.domains, section),
    navItem(view, '/account', n.account, section),
    view.account.isAdmin ? navItem(view, '/admin', n.admin, section) : '',
  ];
  return html`<nav class="site-nav" aria-label="${n.label}"><ul>${items}</ul></nav>`;
}

function themeSwitch(view: View): RawHtml {
  const t = view.t.common.theme;
  const option = (value: View['theme'], label: string) => html`<option value="${value}"${view.theme === value ? html` selected` : ''}>${label}</option>`;
  // No CSRF token (the route checks only that the post is not cross-site): a page with no other
  // form sets no cookie for an anonymous visitor (public statistics).
  return html`<form method="post" action="/theme" data-autosubmit>
<input type="hidden" name="next" value="${view.url}">
<label for="theme-select" class="visually-hidden">${t.label}</label>
<select id="theme-select" name="theme">${option('system', t.system)}${option('light', t.light)}${option('dark', t.dark)}</select>
<button type="submit" class="secondary">${t.apply}</button>
</form>`;
}

/** The shell of every app page: skip link, header with navigation and theme, the flash, main. */
export function appLayout(view: View, page: AppPage): string {
  const c = view.t.common;
  const signOut = view.account
    ? html`<form method="post" action="/logout">${csrfField(view)}<button type="submit" class="secondary">${c.nav.signOut}</button></form>`
    : '';
  return html`<!doctype html>
<html lang="${view.fmt.locale}"${view.theme === 'system' ? '' : html` data-theme="${view.theme}"`}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${page.title} · ${c.appName}</title>
<link rel="icon" href="/favicon.ico" sizes="32x32">
<link rel="icon" href="${FAVICON_SVG_PATH}" type="image/svg+xml">
<link rel="manifest" href="${MANIFEST_PATH}">
<meta name="theme-color" content="${BRAND_COLOUR}">
<link rel="stylesheet" href="${ASSETS.css.path}">
<script src="${ASSETS.js.path}" defer></script>
</head>
<body>
<a class="skip-link" href="#main">${c.skipToContent}</a>
<header class="site-header"><div class="site-header-inner">
<a class="brand" href="${view.account ? '/dashboard' : '/'}">${c.appName}</a>
${navigation(view, page.section)}
<div class="header-tools">${themeSwitch(view)}${signOut}</div>
</div></header>
<main id="main" tabindex="-1"${page.narrow ? html` class="narrow"` : ''}>
${view.flash ? html`<p class="flash" role="status">${view.flash}</p>` : ''}
${page.main}
</main>
</body>
</html>
`.toString();
}
