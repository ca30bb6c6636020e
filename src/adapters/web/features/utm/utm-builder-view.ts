import { UTM_LIMITS, UTM_PARAMS } from '../../../../core/utm/utm-params.ts';
import { readUtm } from '../../../../core/utm/utm-url.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { selectField, textField } from '../../ui/components.ts';
import type { View } from '../../app/view.ts';
import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { UtmBuilderState } from './utm-builder-state.ts';

/** What the builder reads of the link form's page (LinkFormPage has it all). */
export interface UtmBuilderPage {
  values: { url: string };
  errors?: FieldErrors | undefined;
  /** The link edited, if any: the apply button posts back to its form. */
  existing?: { view: { link: { id: number } } } | undefined;
  utm?: UtmBuilderState | undefined;
}

/**
 * The link form's UTM builder: the five parameters read from the destination, and a template
 * picker whose button posts the form back with the template applied. utm.js composes the
 * destination as the fields change; without it the server does on submit (utm-builder-state.ts).
 */
export function utmBuilder(view: View, p: UtmBuilderPage): RawHtml {
  const t = view.t.utm;
  const state = p.utm ?? { params: readUtm(p.values.url), template: '', templates: [], errors: {} };
  const errors = { ...state.errors, ...p.errors };
  const action = p.existing ? `/links/${p.existing.view.link.id}/edit` : '/links/new';
  // The templates' parameters ride on the picker, read by utm.js, which applies one in the page;
  // without it "Apply template" posts the form back and the server applies it.
  const values = Object.fromEntries(state.templates.map((template) => [template.id, template.params]));
  const picker =
    state.templates.length === 0
      ? ''
      : html`<div class="utm-template" data-utm-templates="${JSON.stringify(values)}" data-applied="${t.builder.applied('{name}')}">
${selectField({
  name: 'utm_template',
  label: t.builder.template,
  value: state.template,
  errors,
  options: [
    { value: '', label: t.builder.chooseTemplate },
    ...state.templates.map((template) => ({ value: String(template.id), label: template.name })),
  ],
})}
<button type="submit" class="secondary" name="utm_apply" value="1" formaction="${action}#f-utm_template">${t.builder.apply}</button>
<p class="hint" role="status" data-utm-applied hidden></p>
</div>`;
  const fields = UTM_PARAMS.map((name) =>
    textField({
      name,
      label: t.fields[name],
      value: state.params[name],
      errors,
      maxlength: UTM_LIMITS.valueMax,
      autocomplete: 'off',
    }),
  );
  // The link form's "Tags & UTM" section folds it: no fold of its own.
  return html`<fieldset class="utm-builder" data-utm-builder>
<legend>${t.builder.legend}</legend>
<input type="hidden" name="utm_base" value="${p.values.url}">
<p class="hint">${t.builder.hint}</p>
${picker}
<div class="utm-fields">${fields}</div>
<p><a href="/links/utm-templates">${t.builder.manage}</a></p>
</fieldset>`;
}
