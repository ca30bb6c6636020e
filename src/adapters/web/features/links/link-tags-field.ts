import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { LinkView } from '../../../../core/links/link.ts';
import { TAG_LIMITS } from '../../../../core/tags/tag.ts';
import type { RawHtml } from '../../../shared/html/html.ts';
import type { View } from '../../app/view.ts';
import { textField } from '../../ui/components.ts';

/**
 * The link form's tags: one text field of names separated by commas, which works without
 * JavaScript; the server splits it into the API's `tags` list. A name holds no comma.
 */
export function tagsOfText(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** The posted field as typed (a list, as `tags[]=` sends it, is joined). */
export function tagsTextOfForm(value: unknown): string {
  if (typeof value === 'string') return value;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').join(', ') : '';
}

export function tagsTextOfLink(view: LinkView): string {
  return view.tags.map((t) => t.name).join(', ');
}

/** The field, with the rule's fault (`tags`, or one name's `tags.N`) under it. */
export function tagsField(view: View, value: string, errors: FieldErrors | undefined): RawHtml {
  const t = view.t.tags.field;
  const own = Object.entries(errors ?? {}).flatMap(([field, list]) =>
    field === 'tags' || field.startsWith('tags.') ? list : [],
  );
  const maxlength = (TAG_LIMITS.nameMax + 2) * TAG_LIMITS.perLink;
  return textField({
    name: 'tags',
    label: t.label,
    hint: t.hint,
    value,
    errors: own.length > 0 ? { tags: own } : undefined,
    maxlength,
    autocomplete: 'off',
  });
}
