import { PIXEL_LIMITS, PIXEL_TYPES, type Pixel } from '../../../../core/pixels/pixel.ts';
import { PixelBody, PixelListQuery } from '../../../shared/schemas/pixel.ts';
import { html } from '../../../shared/html/html.ts';
import type { View } from '../../app/view.ts';
import { selectField, textField } from '../../ui/components.ts';
import type { WebFeature } from '../feature.ts';
import { resourcePages } from '../resources/resource-pages.ts';
import { textOf } from '../resources/resource-spec.ts';

/** The vendor's name of a pixel type (its API value if the catalogue lacks it). */
function pixelTypeName(view: View, type: string): string {
  const names: Readonly<Record<string, string>> = view.t.pixels.types;
  return names[type] ?? type;
}

const typeOptions = (view: View) => PIXEL_TYPES.map((type) => ({ value: type, label: pixelTypeName(view, type) }));

/** /pixels: list, new, edit, delete. */
export const pixelsPages: WebFeature = (web, ctx) => {
  resourcePages(web, ctx, {
    plural: 'pixels',
    service: ctx.pixels,
    body: PixelBody,
    query: PixelListQuery,
    filterOf: (q: PixelListQuery) => ({ search: q.search, type: q.type, sort: q.sort }),
    text: (view) => view.t.pixels,
    defaults: {},
    blankIsAbsent: ['type'],
    valuesOf: (p: Pixel) => ({ name: p.name, type: p.type, value: p.value }),
    fields: (view, values, errors, record) => {
      const t = view.t.pixels;
      // Only a new pixel may leave its type unchosen (a blank choice means "required").
      const blank = record ? [] : [{ value: '', label: t.chooseType }];
      return html`${textField({ name: 'name', label: t.fields.name, value: textOf(values, 'name'), errors, maxlength: PIXEL_LIMITS.nameMax, required: true })}
${selectField({ name: 'type', label: t.fields.type, value: textOf(values, 'type'), errors, options: [...blank, ...typeOptions(view)], required: true })}
${textField({ name: 'value', label: t.fields.value, value: textOf(values, 'value'), errors, hint: t.valueHint, maxlength: PIXEL_LIMITS.valueMax, required: true })}`;
    },
    columns: (view) => [
      { header: view.t.pixels.fields.type, cell: (p: Pixel) => pixelTypeName(view, p.type) },
      { header: view.t.pixels.fields.value, cell: (p: Pixel) => html`<span class="url">${p.value}</span>` },
    ],
    filters: (view, q) =>
      selectField({
        name: 'type',
        label: view.t.pixels.fields.type,
        value: q.type ?? '',
        options: [{ value: '', label: view.t.pixels.allTypes }, ...typeOptions(view)],
      }),
    filterParams: (q) => ({ type: q.type }),
  });
};
