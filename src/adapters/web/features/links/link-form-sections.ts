import type { FieldErrors } from '../../../../core/shared/errors.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';

/**
 * One folded section of the link form: a `<details>` whose `<summary>` names it and says in one
 * line what is set, so the form is short and still tells what a link does. Folded unless asked
 * open or one of its fields has an error (the error summary's links then land on a visible field).
 * Without JavaScript the browser opens and closes it; its fields are sent either way.
 */
export interface FormSection {
  /** The section's name in the page: `section-{id}`. */
  id: string;
  title: string;
  /** One line of what is set ("2 tags · utm_source=news", "None"). */
  summary: string;
  /** The top-level field names in it (`country` for `country.0.key`): an error on one opens it. */
  fields: readonly string[];
  body: RawHtml;
}

/** The top-level name of an error's field: `country` of `country.0.key` or `country[0][key]`. */
const topField = (field: string): string => field.split(/[.[]/)[0] ?? field;

export function sectionHasError(section: Pick<FormSection, 'fields'>, errors: FieldErrors | undefined): boolean {
  return Object.keys(errors ?? {}).some((field) => section.fields.includes(topField(field)));
}

export function formSection(section: FormSection, errors: FieldErrors | undefined, open = false): RawHtml {
  const opened = open || sectionHasError(section, errors);
  return html`<details class="form-section" id="section-${section.id}"${opened ? html` open` : ''}>
<summary><span class="form-section-title">${section.title}</span> <span class="form-section-summary">${section.summary}</span></summary>
<div class="form-section-body">
${section.body}
</div>
</details>`;
}
