import type { Tag } from '../../../../core/tags/tag.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import type { View } from '../../app/view.ts';
import { withQuery } from '../../ui/components.ts';

/** One tag as a coloured chip; its colour is a class (the CSP allows no style attribute). */
export function tagChip(tag: Pick<Tag, 'name' | 'color'>): RawHtml {
  return html`<span class="tag-chip tag-${tag.color}">${tag.name}</span>`;
}

/** A link's tags in a list row: each chip filters the list by its tag. */
export function tagChips(view: View, tags: readonly Tag[]): RawHtml {
  if (tags.length === 0) return html``;
  const t = view.t.tags;
  return html`<ul class="tag-chips" aria-label="${t.chipsLabel}">${tags.map(
    (tag) =>
      html`<li><a href="${withQuery('/links', {}, { tag: tag.name })}" title="${t.filterBy(tag.name)}">${tagChip(tag)}</a></li>`,
  )}</ul>`;
}

/** The list's tag filter, when one is set: a chip that removes it (the rest of the query kept). */
export function tagFilterChip(view: View, tag: string | undefined, without: string): RawHtml {
  if (tag === undefined) return html``;
  const t = view.t.tags;
  return html`<p class="tag-filter">${t.filtered}: <a href="${without}" aria-label="${t.removeFilter(tag)}"><span class="tag-chip tag-gray">${tag} <span aria-hidden="true">×</span></span></a> <a href="/links/tags">${t.manage}</a></p>`;
}

/** Keeps the tag filter when the filter form is sent again. */
export function tagFilterField(tag: string | undefined): RawHtml {
  return tag === undefined ? html`` : html`<input type="hidden" name="tag" value="${tag}">`;
}
