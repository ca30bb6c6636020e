import { UTM_LIMITS, UTM_PARAMS } from '../../../../core/utm/utm-params.ts';
import type { UtmTemplate } from '../../../../core/utm/utm-template.ts';
import { UtmTemplateBody, UtmTemplateListQuery } from '../../../shared/schemas/utm-template.ts';
import { html } from '../../../shared/html/html.ts';
import { textField } from '../../ui/components.ts';
import type { WebFeature } from '../feature.ts';
import { resourcePages } from '../resources/resource-pages.ts';
import { textOf } from '../resources/resource-spec.ts';

/** /links/utm-templates: list, new, edit, delete; the same body and rules as /api/v1/utm-templates. */
export const utmTemplatesPages: WebFeature = (web, ctx) => {
  resourcePages(web, ctx, {
    plural: 'links/utm-templates',
    service: ctx.utmTemplates,
    body: UtmTemplateBody,
    query: UtmTemplateListQuery,
    filterOf: (q: UtmTemplateListQuery) => ({ search: q.search, sort: q.sort }),
    text: (view) => view.t.utm,
    defaults: {},
    valuesOf: (t: UtmTemplate) => ({ name: t.name, ...t.params }),
    fields: (view, values, errors) => {
      const t = view.t.utm;
      const params = UTM_PARAMS.map((name) =>
        textField({
          name,
          label: t.fields[name],
          hint: t.hints[name],
          value: textOf(values, name),
          errors,
          maxlength: UTM_LIMITS.valueMax,
          autocomplete: 'off',
        }),
      );
      return html`${textField({ name: 'name', label: t.fields.name, value: textOf(values, 'name'), errors, maxlength: UTM_LIMITS.nameMax, required: true })}
${params}`;
    },
    columns: (view) => [
      { header: view.t.utm.source, cell: (t: UtmTemplate) => t.params.utm_source },
      { header: view.t.utm.campaign, cell: (t: UtmTemplate) => t.params.utm_campaign },
    ],
  });
};
