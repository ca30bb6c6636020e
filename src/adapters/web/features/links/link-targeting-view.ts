import type { FieldErrors } from '../../../../core/shared/errors.ts';
import { TARGET_LISTS, type TargetListName } from '../../../../core/targeting/target.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { errorsFor, fieldId, selectField, textField, type SelectOption } from '../../ui/components.ts';
import type { View } from '../../app/view.ts';
import { ROWS_MAX, type LinkFormValues, type TargetRow } from './link-form-state.ts';
import { targetOptions } from './target-options.ts';

function fieldError(id: string, messages: string[]): RawHtml {
  return messages.length > 0 ? html`<p class="field-error" id="${id}-error">${messages.join(' ')}</p>` : html``;
}

/**
 * One row: its key (not for rotation), its URL, and a submit button that takes it out. The
 * labels carry their text with `{n}` for the row's number, so the script (link-form.js) can
 * number rows it adds or takes out in the page without the catalogue.
 */
function row(
  view: View,
  action: string,
  list: TargetListName,
  i: number,
  r: TargetRow,
  errors: FieldErrors | undefined,
  keys: readonly SelectOption[],
): RawHtml {
  const t = view.t.linkForm.targeting;
  const names = t.lists[list];
  const legend = list === 'rotation' ? names.legend : names.key;
  const keyControl =
    list === 'rotation'
      ? ''
      : selectField({
          name: `${list}[${i}][key]`,
          label: names.key,
          errors,
          // A value the list does not know (sent by hand) stays visible rather than silently lost.
          options: [
            { value: '', label: names.choose },
            ...(r.key !== '' && !keys.some((k) => k.value === r.key) ? [{ value: r.key, label: r.key }] : []),
            ...keys,
          ],
          value: r.key,
        });
  return html`<fieldset class="target-row">
<legend data-label="${t.rowLabel(legend, '{n}')}">${t.rowLabel(legend, i + 1)}</legend>
${keyControl}
${textField({ name: `${list}[${i}][value]`, label: t.value, type: 'url', value: r.value, errors, inputmode: 'url' })}
<div class="target-row-remove"><button type="submit" class="secondary" name="remove_row" value="${list}:${i}" formaction="${action}#${fieldId(list)}" aria-label="${t.removeRow(legend, i + 1)}" data-aria-label="${t.removeRow(legend, '{n}')}">${t.remove}</button></div>
</fieldset>`;
}

/**
 * The add and remove buttons post to the form's address plus a fragment: the page that comes
 * back scrolls to the new row (or the list) and keyboard focus continues from there, no script.
 * With the script, the buttons clone the list's `<template>` row or take a row out in the page.
 */
function listSection(
  view: View,
  action: string,
  list: TargetListName,
  values: LinkFormValues,
  errors: FieldErrors | undefined,
): RawHtml {
  const t = view.t.linkForm.targeting;
  const names = t.lists[list];
  const rows = values.lists[list];
  const keys = list === 'rotation' ? [] : targetOptions(view.fmt.locale, view.t.common.visitorNames.platforms)[list];
  // List-wide faults (too many rows) name the list itself: its "add" button carries that id.
  const id = fieldId(list);
  const listErrors = errorsFor(errors, list);
  // The template's row is numbered past any real row (the script renumbers it as it adds it).
  return html`<fieldset class="target-list" data-target-list="${list}" data-rows-max="${ROWS_MAX}">
<legend>${names.legend}</legend>
${fieldError(id, listErrors)}
<p class="hint"${rows.length > 0 ? html` hidden` : ''} data-rows-empty>${names.empty}</p>
<div class="target-rows">${rows.map((r, i) => row(view, action, list, i, r, errors, keys))}</div>
<template>${row(view, action, list, ROWS_MAX, { key: '', value: '' }, undefined, keys)}</template>
<div class="actions"><button type="submit" class="secondary" id="${id}" name="add_row" value="${list}" formaction="${action}#${fieldId(`${list}[${rows.length}][${list === 'rotation' ? 'value' : 'key'}]`)}"${rows.length >= ROWS_MAX ? html` disabled` : ''}${listErrors.length > 0 ? html` aria-describedby="${id}-error"` : ''}>${names.add}</button></div>
</fieldset>`;
}

/** The targeting fields: the list that acts and each list's rows (the form's section holds them). */
export function targetingFields(
  view: View,
  action: string,
  values: LinkFormValues,
  errors: FieldErrors | undefined,
): RawHtml {
  const t = view.t.linkForm.targeting;
  const types = Object.entries(t.types).map(([value, label]) => ({ value, label }));
  return html`${selectField({ name: 'target_type', label: t.type, hint: t.typeHint, options: types, value: values.target_type, errors })}
${TARGET_LISTS.map((list) => listSection(view, action, list, values, errors))}`;
}
