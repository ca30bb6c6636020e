import { html, type RawHtml } from '../../shared/html/html.ts';

export interface MenuOptions {
  /** The button's visible text (its accessible name unless `label` is given). */
  summary: RawHtml | string;
  /** The accessible name, which must start with the visible text (WCAG 2.5.3). */
  label?: string;
  /** Extra classes on the <details> (`nav-menu`, `account-menu`, `row-menu`). */
  className?: string;
  /** The panel opens towards the start edge rather than the end (a menu on the left of its bar). */
  alignStart?: boolean;
}

/**
 * A disclosure menu: `<details>`/`<summary>`, so it opens and closes without JavaScript; the
 * script (menus.js) only closes it on a click elsewhere or Escape. Not `role="menu"`: its items
 * are ordinary links and forms, reached with Tab as everywhere else.
 */
export function menu(o: MenuOptions, panel: RawHtml): RawHtml {
  const classes = ['menu', o.className, o.alignStart ? 'menu-start' : ''].filter(Boolean).join(' ');
  return html`<details class="${classes}" data-menu>
<summary class="menu-button"${o.label ? html` aria-label="${o.label}"` : ''}>${o.summary}</summary>
<div class="menu-panel">${panel}</div>
</details>`;
}

/** A list of links (and forms) inside a menu's panel; `danger` items read as destructive. */
export function menuItems(items: readonly (RawHtml | '')[]): RawHtml {
  return html`<ul class="menu-items" role="list">${items.filter((i) => i !== '').map((i) => html`<li>${i}</li>`)}</ul>`;
}
