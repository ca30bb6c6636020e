import { SPACE_LIMITS, type Space } from '../../../../core/spaces/space.ts';
import { SpaceBody, SpaceListQuery } from '../../../shared/schemas/space.ts';
import { html } from '../../../shared/html/html.ts';
import { textField } from '../../ui/components.ts';
import { colourField, colourLabel } from '../../ui/space-colour.ts';
import type { WebFeature } from '../feature.ts';
import { resourcePages } from '../resources/resource-pages.ts';
import { textOf } from '../resources/resource-spec.ts';

/** /spaces: list, new, edit, delete. */
export const spacesPages: WebFeature = (web, ctx) => {
  resourcePages(web, ctx, {
    plural: 'spaces',
    service: ctx.spaces,
    body: SpaceBody,
    query: SpaceListQuery,
    filterOf: (q: SpaceListQuery) => ({ search: q.search, sort: q.sort }),
    text: (view) => view.t.spaces,
    defaults: { color: String(SPACE_LIMITS.colorMin) },
    valuesOf: (s: Space) => ({ name: s.name, color: String(s.color) }),
    fields: (view, values, errors) => {
      const t = view.t.spaces;
      return html`${textField({ name: 'name', label: t.fields.name, value: textOf(values, 'name'), errors, maxlength: SPACE_LIMITS.nameMax, required: true })}
${colourField(view, { name: 'color', legend: t.fields.color, value: textOf(values, 'color'), errors })}`;
    },
    columns: (view) => [{ header: view.t.spaces.fields.color, cell: (s: Space) => colourLabel(view, s.color) }],
  });
};
