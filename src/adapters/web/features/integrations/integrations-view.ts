import type { Integration } from '../../../../core/integrations/integration.ts';
import { INTEGRATION_TYPES } from '../../../../core/integrations/integration.ts';
import type { FieldErrors } from '../../../../core/shared/errors.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { endpointUrl } from '../../../shared/presenters/integration-record.ts';
import { copyButton, csrfField, errorSummary, postButton, selectField, textField } from '../../ui/components.ts';
import type { View } from '../../app/view.ts';
import { workspaceName } from '../../ui/workspace-name.ts';

export interface IntegrationsPageInput {
  workspace: { id: number; name: string; personal: boolean };
  appUrl: string;
  items: readonly Integration[];
  /** Just added: its endpoint shown first, to copy. */
  made?: Integration | undefined;
  values?: { type: string; secret: string } | undefined;
  errors?: FieldErrors | undefined;
}

function row(view: View, p: IntegrationsPageInput, item: Integration): RawHtml {
  const t = view.t.integrations;
  const url = endpointUrl(p.appUrl, item.token);
  const type = t.types[item.type] ?? item.type;
  const remove = `/account/workspaces/${p.workspace.id}/integrations/${item.id}/remove`;
  return html`<tr>
<td data-label="${t.columns.type}">${type}</td>
<td data-label="${t.columns.endpoint}"><code class="url">${url}</code> ${copyButton(view, url, t.columns.endpoint)}</td>
<td class="date" data-label="${t.columns.created}">${view.fmt.dateTime(item.createdAt)}</td>
<td data-label="${view.t.common.actions}">${postButton(view, remove, t.remove, { danger: true, accessibleName: t.removeNamed(type, item.id) })}</td>
</tr>`;
}

function list(view: View, p: IntegrationsPageInput): RawHtml {
  const t = view.t.integrations;
  if (p.items.length === 0) return html`<p class="muted">${t.empty}</p>`;
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${t.caption}"><table class="table-stack">
<caption class="visually-hidden">${t.caption}</caption>
<thead><tr><th scope="col">${t.columns.type}</th><th scope="col">${t.columns.endpoint}</th><th scope="col">${t.columns.created}</th><th scope="col">${view.t.common.actions}</th></tr></thead>
<tbody>${p.items.map((item) => row(view, p, item))}</tbody>
</table></div>`;
}

function made(view: View, p: IntegrationsPageInput): RawHtml {
  if (!p.made) return html``;
  const t = view.t.integrations;
  const url = endpointUrl(p.appUrl, p.made.token);
  return html`<section class="card" aria-labelledby="made-title">
<h2 id="made-title">${t.made}</h2>
<p id="made-warning">${t.madeWarning}</p>
<div class="field"><label for="made-url">${t.made}</label>
<input id="made-url" class="mono" type="text" value="${url}" readonly autocomplete="off" spellcheck="false" aria-describedby="made-warning"></div>
<div class="actions">${copyButton(view, url)}</div>
</section>`;
}

function addForm(view: View, p: IntegrationsPageInput): RawHtml {
  const t = view.t.integrations;
  const values = p.values ?? { type: '', secret: '' };
  return html`<section class="settings-section" aria-labelledby="add-title"><h2 id="add-title">${t.add}</h2>
${errorSummary(view, p.errors)}
<form method="post" action="/account/workspaces/${p.workspace.id}/integrations" class="stack" novalidate>
${csrfField(view)}
${selectField({ name: 'type', label: t.type, options: INTEGRATION_TYPES.map((type) => ({ value: type, label: t.types[type] ?? type })), value: values.type || 'stripe', errors: p.errors, required: true })}
${textField({ name: 'secret', label: t.secret, hint: t.secretHint, value: values.secret, errors: p.errors, maxlength: 255, required: true, autocomplete: 'off' })}
<div class="actions"><button type="submit">${t.create}</button></div>
</form></section>`;
}

/** The workspace's integrations: the one just added, the list with each endpoint to copy, and the form. */
export function integrationsPage(view: View, p: IntegrationsPageInput): RawHtml {
  const t = view.t.integrations;
  return html`<h1>${t.title} · ${workspaceName(view, p.workspace)}</h1>
<p><a href="/account/workspaces/${p.workspace.id}">${t.back}</a></p>
<p>${t.intro}</p>
${made(view, p)}
${list(view, p)}
<p class="hint">${t.setUp}</p>
${addForm(view, p)}`;
}
