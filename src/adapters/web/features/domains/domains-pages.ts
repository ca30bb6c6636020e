import { ValidationError } from '../../../../core/shared/errors.ts';
import { statusOf, type Domain } from '../../../../core/domains/domain.ts';
import { verificationOf } from '../../../../core/domains/verification.ts';
import { URL_MAX_LENGTH } from '../../../../core/links/url-policy.ts';
import { DomainBody, DomainListQuery } from '../../../shared/schemas/domain.ts';
import { IdParams } from '../../../shared/schemas/common.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import type { View } from '../../app/view.ts';
import { seeOther } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf } from '../../app/view.ts';
import { webActor } from '../../app/audit-actor.ts';
import { copyButton, postButton, textArea, textField } from '../../ui/components.ts';
import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { WebFeature } from '../feature.ts';
import { resourcePages } from '../resources/resource-pages.ts';
import { textOf } from '../resources/resource-spec.ts';

function statusLabel(view: View, domain: Domain): RawHtml {
  const status = statusOf(domain);
  return html`<span class="status-${status}">${view.t.domains.status[status]}</span>`;
}

/** A value to publish, with a copy button once app.js runs. */
const copyable = (view: View, value: string, label: string) =>
  html`<dd><code class="url">${value}</code> ${copyButton(view, value, label)}</dd>`;

/** The domain's state and, while pending, where to publish its token and the button that checks. */
function verificationPanel(view: View, domain: Domain, problems: readonly string[] = []): RawHtml {
  const v = view.t.domains.verification;
  if (domain.verifiedAt !== null) {
    return html`<section class="verification" aria-labelledby="verification-title"><h2 id="verification-title">${v.title}</h2>
<p>${statusLabel(view, domain)} · ${v.verifiedOn(view.fmt.dateTime(domain.verifiedAt))}</p></section>`;
  }
  const target = verificationOf(domain);
  return html`<section class="verification" aria-labelledby="verification-title"><h2 id="verification-title">${v.title}</h2>
${
  problems.length > 0
    ? html`<div class="error-summary" role="alert" aria-labelledby="verification-failed" tabindex="-1" autofocus><h3 id="verification-failed">${v.failedTitle}</h3><ul>${problems.map((p) => html`<li>${p}</li>`)}</ul></div>`
    : ''
}
<p>${statusLabel(view, domain)} · ${v.pending}</p>
<dl><dt>${v.token}</dt>${copyable(view, target.token, v.token)}</dl>
<h3>${v.dnsTitle}</h3>
<dl><dt>${v.dnsName}</dt>${copyable(view, target.txtName, v.dnsName)}<dt>${v.dnsValue}</dt>${copyable(view, target.token, v.dnsValue)}</dl>
<h3>${v.fileTitle}</h3>
<dl><dt>${v.fileUrl}</dt>${copyable(view, target.fileUrl, v.fileUrl)}</dl>
<p>${v.fileBody}</p>
${postButton(view, `/domains/${domain.id}/verify`, v.checkNow)}
</section>`;
}

/** The app-site files a domain serves (docs/design/domains.md), edited as their JSON text. */
const APP_SITE_FIELDS = ['apple_app_site_association', 'assetlinks'] as const;

/** The stored JSON text, indented for a person to edit. */
function readable(stored: string | null): string {
  if (stored === null) return '';
  try {
    return JSON.stringify(JSON.parse(stored), null, 2);
  } catch {
    return stored;
  }
}

/** A fault at a path inside a document (`assetlinks.0.target`) shown at the document's box; its message names the path. */
function foldInto(errors: FieldErrors, fields: readonly string[]): FieldErrors {
  const out: FieldErrors = {};
  for (const [field, messages] of Object.entries(errors)) {
    const owner = fields.find((f) => field.startsWith(`${f}.`)) ?? field;
    out[owner] = [...(out[owner] ?? []), ...messages];
  }
  return out;
}

/** /domains: list, new, edit (with the verification), delete, and "Check now". */
export const domainsPages: WebFeature = (web, ctx) => {
  const pages = resourcePages(web, ctx, {
    plural: 'domains',
    service: ctx.domains,
    body: DomainBody,
    query: DomainListQuery,
    filterOf: (q: DomainListQuery) => ({ search: q.search, sort: q.sort }),
    text: (view) => view.t.domains,
    defaults: {},
    valuesOf: (d: Domain) => ({
      name: d.name,
      index_page: d.indexPage ?? '',
      not_found_page: d.notFoundPage ?? '',
      apple_app_site_association: readable(d.appleAppSiteAssociation),
      assetlinks: readable(d.assetLinks),
    }),
    foldErrors: (errors) => foldInto(errors, APP_SITE_FIELDS),
    fields: (view, values, errors, record) => {
      const t = view.t.domains;
      const url = (name: 'index_page' | 'not_found_page', hint: string) =>
        textField({
          name,
          label: t.fields[name],
          type: 'url',
          value: textOf(values, name),
          errors,
          hint,
          maxlength: URL_MAX_LENGTH,
          inputmode: 'url',
        });
      return html`${textField({ name: 'name', label: t.fields.name, value: textOf(values, 'name'), errors, hint: record ? t.renameHint : t.nameHint, maxlength: 253, required: true, autocomplete: 'off' })}
${url('index_page', t.indexPageHint)}
${url('not_found_page', t.notFoundPageHint)}
<fieldset>
<legend>${t.appFiles.legend}</legend>
<p class="hint">${t.appFiles.hint}</p>
${APP_SITE_FIELDS.map((name) => textArea({ name, label: t.appFiles[name], value: textOf(values, name), errors, hint: t.appFiles.fileHint(name), rows: 8 }))}
</fieldset>`;
    },
    columns: (view) => [
      { header: view.t.domains.fields.status, cell: (d: Domain) => statusLabel(view, d) },
      {
        header: view.t.domains.fields.index_page,
        cell: (d: Domain) => (d.indexPage ? html`<span class="url">${d.indexPage}</span>` : ''),
      },
      {
        header: view.t.domains.fields.not_found_page,
        cell: (d: Domain) => (d.notFoundPage ? html`<span class="url">${d.notFoundPage}</span>` : ''),
      },
    ],
    aside: verificationPanel,
    afterCreate: (d) => `/domains/${d.id}/edit`,
  });

  web.post('/domains/:id/verify', { schema: { params: IdParams } }, async (request, reply) => {
    const accountId = viewerOf(request).workspace.id;
    const id = (request.params as IdParams).id;
    try {
      const domain = await ctx.domains.verify(accountId, id, webActor(request));
      setFlash(reply, viewOf(request, reply, ctx.web.csrfSecret).t.domains.verification.verified(domain.name));
      return seeOther(reply, `/domains/${id}/edit`);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return pages.sendEdit(
        request,
        reply,
        422,
        await ctx.domains.get(accountId, id),
        Object.values(error.fields).flat(),
      );
    }
  });
};
