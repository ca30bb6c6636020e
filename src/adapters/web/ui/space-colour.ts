import type { FieldErrors } from '../../../core/shared/errors.ts';
import { SPACE_LIMITS } from '../../../core/spaces/space.ts';
import { html, type RawHtml } from '../../shared/html/html.ts';
import type { View } from '../app/view.ts';
import { errorsFor, fieldId } from './components.ts';

/** The six palette slots of a space (`color` 1..6), as drawn on every page that shows a space. */
const SPACE_PALETTE: Readonly<Record<number, string>> = {
  1: '#1a73e8',
  2: '#1e8e3e',
  3: '#f9ab00',
  4: '#d93025',
  5: '#9334e6',
  6: '#80868b',
};

const SPACE_COLOURS: readonly number[] = Array.from(
  { length: SPACE_LIMITS.colorMax - SPACE_LIMITS.colorMin + 1 },
  (_, i) => SPACE_LIMITS.colorMin + i,
);

/** The colour's name; a slot outside the palette reads as its number. */
function colourName(view: View, colour: number): string {
  const names: Readonly<Record<number, string>> = view.t.spaces.colours;
  return names[colour] ?? String(colour);
}

/**
 * A small square of the colour. An SVG `fill` is a presentation attribute, which the CSP allows
 * (a `style` attribute it does not); hidden from assistive technology, the text beside it says it.
 */
function swatch(colour: number): RawHtml {
  const fill = SPACE_PALETTE[colour] ?? SPACE_PALETTE[1]!;
  return html`<svg class="swatch" width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false"><rect x="0.5" y="0.5" width="13" height="13" rx="3" fill="${fill}" stroke="currentColor" stroke-opacity="0.5"/></svg>`;
}

/** The colour as a list or table shows it: swatch and name. */
export function colourLabel(view: View, colour: number): RawHtml {
  return html`<span class="colour">${swatch(colour)}${colourName(view, colour)}</span>`;
}

/** The `color` field: one radio per palette slot, each with its swatch and name. */
export function colourField(
  view: View,
  o: { name: string; legend: string; value: string; errors?: FieldErrors | undefined },
): RawHtml {
  const id = fieldId(o.name);
  const errors = errorsFor(o.errors, o.name);
  const radios = SPACE_COLOURS.map((colour, i) => {
    const radioId = i === 0 ? id : `${id}-${colour}`;
    return html`<label class="check colour-choice" for="${radioId}"><input type="radio" id="${radioId}" name="${o.name}" value="${colour}"${String(colour) === o.value ? html` checked` : ''}${errors.length > 0 ? html` aria-describedby="${id}-error"` : ''}> ${colourLabel(view, colour)}</label>`;
  });
  return html`<fieldset class="field colour-choices">
<legend>${o.legend}</legend>
${radios}
${errors.length > 0 ? html`<p class="field-error" id="${id}-error">${errors.join(' ')}</p>` : ''}
</fieldset>`;
}
