import { html, type RawHtml } from '../../shared/html/html.ts';
import type { View } from '../app/view.ts';
import { ASSETS } from './assets.ts';
import { csrfField } from './components.ts';
import { BRAND_COLOUR } from '../../shared/html/brand.ts';
import { FAVICON_SVG_PATH, MANIFEST_PATH } from './brand-routes.ts';
import { menu, menuItems } from './menu.ts';
import { workspaceName } from './workspace-name.ts';

export interface AppPage {
  /** The page's own name; the document title adds the app's. */
  title: string;
  main: RawHtml;
  /** Which navigation item is current (its path), if any. */
  section?: string;
  /** A narrow column (sign-in forms). */
  narrow?: boolean;
}

function navItem(href: string, label: string, section: string | undefined) {
  return html`<li><a href="${href}"${section === href ? html` aria-current="page"` : ''}>${label}</a></li>`;
}

function navItems(view: View, section: string | undefined): RawHtml[] {
  const n = view.t.common.nav;
  if (!view.account) return [navItem('/login', n.signIn, section), navItem('/signup', n.signUp, section)];
  return [
    navItem('/dashboard', n.dashboard, section),
    navItem('/links', n.links, section),
    navItem('/pixels', n.pixels, section),
    navItem('/spaces', n.spaces, section),
    navItem('/domains', n.domains, section),
    // Webhooks are an admin's: others would meet a refusal.
    ...(view.can('webhooks.read') ? [navItem('/webhooks', n.webhooks, section)] : []),
  ];
}

/**
 * The main navigation, twice: a row of links on wide screens, a menu on phones. CSS shows one of
 * them, so assistive technology meets one landmark at a time (a hidden one is not in the tree).
 */
function navigation(view: View, section: string | undefined): RawHtml {
  const n = view.t.common.nav;
  const items = navItems(view, section);
  // Signed out there are two links: they stay in the header on phones too (nav-public).
  if (!view.account)
    return html`<nav class="site-nav nav-wide nav-public" aria-label="${n.label}"><ul>${items}</ul></nav>`;
  const wide = html`<nav class="site-nav nav-wide" aria-label="${n.label}"><ul>${items}</ul></nav>`;
  const narrow = menu(
    { summary: n.menu, className: 'nav-menu' },
    html`<nav class="site-nav" aria-label="${n.label}"><ul>${items}</ul></nav>`,
  );
  return html`${wide}${narrow}`;
}

function themeSwitch(view: View): RawHtml {
  const t = view.t.common.theme;
  const option = (value: View['theme'], label: string) =>
    html`<option value="${value}"${view.theme === value ? html` selected` : ''}>${label}</option>`;
  // No CSRF token (the route checks only that the post is not cross-site): a page with no other
  // form sets no cookie for an anonymous visitor (public statistics).
  return html`<form method="post" action="/theme" class="theme-form" data-autosubmit>
<input type="hidden" name="next" value="${view.url}">
<label for="theme-select">${t.label}</label>
<select id="theme-select" name="theme">${option('system', t.system)}${option('light', t.light)}${option('dark', t.dark)}</select>
<button type="submit" class="secondary small">${t.apply}</button>
</form>`;
}

/**
 * The workspace the pages act in, at the top of every signed-in page, and a plain form to choose
 * another: a select and a button, the same with JavaScript or without (no submit on change, so
 * moving through the options by keyboard goes nowhere). With one workspace, its name alone.
 */
function workspaceBar(view: View): RawHtml {
  const n = view.t.common.nav;
  const current = view.workspace;
  if (!view.account || !current) return html``;
  if (view.workspaces.length < 2)
    return html`<p class="workspace-bar"><span class="workspace-label">${n.workspace}</span> <strong class="workspace-name">${workspaceName(view, current)}</strong></p>`;
  const options = view.workspaces.map(
    (w) =>
      html`<option value="${w.id}"${w.id === current.id ? html` selected` : ''}>${workspaceName(view, w)}</option>`,
  );
  return html`<form method="post" action="/account/workspaces/switch" class="workspace-bar workspace-switch">${csrfField(view)}
<input type="hidden" name="next" value="${view.url}">
<label for="workspace-select" class="workspace-label">${n.workspace}</label>
<select id="workspace-select" name="workspace">${options}</select>
<button type="submit" class="secondary small">${n.switchWorkspace}</button>
</form>`;
}

/** Who is signed in, their settings, the theme and signing out, behind their name. */
function accountMenu(view: View, section: string | undefined): RawHtml {
  const account = view.account;
  if (!account) return html`<div class="header-tools">${themeSwitch(view)}</div>`;
  const n = view.t.common.nav;
  const current = (href: string) => (section === href ? html` aria-current="page"` : '');
  const panel = html`<p class="menu-who"><strong>${account.name}</strong><br><span class="muted">${account.email}</span></p>
${menuItems([
  html`<a href="/account"${current('/account')}>${n.account}</a>`,
  html`<a href="/account/api-keys">${n.apiKeys}</a>`,
  html`<a href="/account/workspaces"${current('/account/workspaces')}>${n.workspaces}</a>`,
  account.isAdmin ? html`<a href="/admin"${current('/admin')}>${n.admin}</a>` : '',
])}
${themeSwitch(view)}
<form method="post" action="/logout" class="menu-signout">${csrfField(view)}<button type="submit" class="secondary small">${n.signOut}</button></form>`;
  return html`<div class="header-tools">${menu({ summary: html`<span class="menu-name">${account.name}</span>`, label: `${account.name}, ${n.accountMenu}`, className: 'account-menu' }, panel)}</div>`;
}

/** The shell of every app page: skip link, header with the workspace, navigation and account menu, the flash, main. */
export function appLayout(view: View, page: AppPage): string {
  const c = view.t.common;
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
${workspaceBar(view)}
${navigation(view, page.section)}
${accountMenu(view, page.section)}
</div></header>
<main id="main" tabindex="-1"${page.narrow ? html` class="narrow"` : ''}>
${view.flash ? html`<p class="flash" role="status">${view.flash}</p>` : ''}
${page.main}
</main>
<footer class="site-footer"><a href="/privacy">${view.t.privacy.footerLink}</a></footer>
</body>
</html>
`.toString();
}
