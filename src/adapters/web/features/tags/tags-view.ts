import type { FieldErrors } from '../../../../core/shared/errors.ts';
import { TAG_COLOURS, TAG_LIMITS, type Tag, type TagWithCount } from '../../../../core/tags/tag.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import type { View } from '../../app/view.ts';
import { csrfField, errorSummary, errorsFor, fieldId, textField, withQuery } from '../../ui/components.ts';
import { tagChip } from '../links/link-tag-chips.ts';

/** GET /links/tags: every tag with its chip and link count, and what can be done to it. */
export function tagsMain(view: View, tags: readonly TagWithCount[]): RawHtml {
  const t = view.t.tags;
  // Renaming, recolouring and deleting are link writes: a reader's table has no actions column.
  const writes = view.can('links.write');
  const actions = (tag: TagWithCount) => html`<td><ul class="row-actions" role="list">
<li><a href="/links/tags/${tag.id}/edit" aria-label="${t.editLabel(tag.name)}">${t.edit}</a></li>
<li><a href="/links/tags/${tag.id}/delete" aria-label="${t.deleteLabel(tag.name)}">${t.delete}</a></li>
</ul></td>`;
  const rows = tags.map(
    (tag) => html`<tr>
<th scope="row">${tagChip(tag)}</th>
<td class="num"><a class="tag-count" href="${withQuery('/links', {}, { tag: tag.name })}" aria-label="${t.linksOf(view.fmt.number(tag.links), tag.name)}">${view.fmt.number(tag.links)}</a></td>
${writes ? actions(tag) : ''}
</tr>`,
  );
  const table =
    tags.length === 0
      ? html`<p>${t.empty}</p>`
      : html`<div class="table-wrap"><table class="tags-table">
<caption class="visually-hidden">${t.caption}</caption>
<thead><tr><th scope="col">${t.columns.tag}</th><th scope="col" class="num">${t.columns.links}</th>${writes ? html`<th scope="col">${t.columns.actions}</th>` : ''}</tr></thead>
<tbody>${rows}</tbody>
</table></div>`;
  return html`<h1>${t.title}</h1>
<p>${writes ? t.intro : t.readerIntro}</p>
${table}
<p><a href="/links">${t.backToLinks}</a></p>`;
}

export interface TagFormValues {
  name: string;
  color: string;
}

/** One radio per palette colour, each showing its chip. */
function colourField(view: View, value: string, errors: FieldErrors | undefined): RawHtml {
  const t = view.t.tags;
  const id = fieldId('color');
  const own = errorsFor(errors, 'color');
  const radios = TAG_COLOURS.map((colour, i) => {
    const radioId = i === 0 ? id : `${id}-${colour}`;
    return html`<label class="check" for="${radioId}"><input type="radio" id="${radioId}" name="color" value="${colour}"${colour === value ? html` checked` : ''}${own.length > 0 ? html` aria-describedby="${id}-error"` : ''}> ${tagChip({ name: t.colours[colour], color: colour })}</label>`;
  });
  return html`<fieldset class="field tag-colours">
<legend>${t.fields.color}</legend>
${own.length > 0 ? html`<p class="field-error" id="${id}-error">${own.join(' ')}</p>` : ''}
${radios}
</fieldset>`;
}

/** GET/POST /links/tags/:id/edit: rename and recolour; a refused form comes back as typed. */
export function tagFormMain(view: View, tag: Tag, values: TagFormValues, errors?: FieldErrors): RawHtml {
  const t = view.t.tags;
  return html`<h1>${t.editTitle(tag.name)}</h1>
${errorSummary(view, errors)}
<form method="post" action="/links/tags/${tag.id}/edit" class="stack" novalidate>
${csrfField(view)}
${textField({ name: 'name', label: t.fields.name, value: values.name, errors, required: true, maxlength: TAG_LIMITS.nameMax * 2, autocomplete: 'off' })}
${colourField(view, values.color, errors)}
<div class="actions"><button type="submit">${t.save}</button> <a href="/links/tags">${view.t.common.cancel}</a></div>
</form>`;
}

/** GET /links/tags/:id/delete: asks; the POST deletes. */
export function tagDeleteMain(view: View, tag: TagWithCount): RawHtml {
  const t = view.t.tags;
  return html`<h1>${t.deleteTitle(tag.name)}</h1>
<p>${tagChip(tag)} ${t.linksOf(view.fmt.number(tag.links), tag.name)}</p>
<p>${t.deleteEffect}</p>
<form method="post" action="/links/tags/${tag.id}/delete" class="actions">
${csrfField(view)}
<button type="submit" class="danger">${t.confirmDelete}</button>
<a href="/links/tags">${view.t.common.cancel}</a>
</form>`;
}
