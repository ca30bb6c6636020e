import type { FieldErrors } from '../../../../core/shared/errors.ts';
import { WEBHOOK_EVENTS, WEBHOOK_FORMATS, WEBHOOK_LIMITS, type Webhook } from '../../../../core/webhooks/webhook.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import type { View } from '../../app/view.ts';
import {
  badge,
  checkbox,
  copyButton,
  csrfField,
  errorSummary,
  errorsFor,
  fieldId,
  selectField,
  textField,
} from '../../ui/components.ts';

/** GET /webhooks: every webhook with its events, format and state, and what can be done to it. */
export function webhooksMain(view: View, hooks: readonly Webhook[]): RawHtml {
  const t = view.t.webhooks;
  const writes = view.can('webhooks.write');
  const actions = (w: Webhook) => html`<td><ul class="row-actions" role="list">
<li><a href="/webhooks/${w.id}/edit" aria-label="${t.editLabel(w.url)}">${t.edit}</a></li>
<li><a href="/webhooks/${w.id}/delete" aria-label="${t.deleteLabel(w.url)}">${t.delete}</a></li>
</ul></td>`;
  const rows = hooks.map(
    (w) => html`<tr>
<th scope="row"><code class="url">${w.url}</code></th>
<td>${w.events.join(', ')}</td>
<td>${t.formats[w.format]}</td>
<td>${w.disabledAt === null ? badge(t.enabled, 'ok') : badge(t.disabled, 'warn')}</td>
${writes ? actions(w) : ''}
</tr>`,
  );
  const c = t.columns;
  const table =
    hooks.length === 0
      ? html`<p>${t.empty}</p>`
      : html`<div class="table-wrap"><table class="webhooks-table">
<caption class="visually-hidden">${t.caption}</caption>
<thead><tr><th scope="col">${c.url}</th><th scope="col">${c.events}</th><th scope="col">${c.format}</th><th scope="col">${c.state}</th>${writes ? html`<th scope="col">${c.actions}</th>` : ''}</tr></thead>
<tbody>${rows}</tbody>
</table></div>`;
  return html`<h1>${t.title}</h1>
<p>${t.intro}</p>
${writes && hooks.length < WEBHOOK_LIMITS.perAccount ? html`<p><a class="button" href="/webhooks/new">${t.create}</a></p>` : ''}
${table}`;
}

/** The form as typed (or as stored): the events as a list, `enabled` as a ticked box. */
export interface WebhookFormValues {
  url: string;
  events: readonly string[];
  format: string;
  enabled: boolean;
}

/** One checkbox per event, in one fieldset; the list is `events[]`, as the API takes it. */
function eventsField(view: View, chosen: readonly string[], errors: FieldErrors | undefined): RawHtml {
  const id = fieldId('events');
  const own = errorsFor(errors, 'events');
  const boxes = WEBHOOK_EVENTS.map((event, i) => {
    const boxId = i === 0 ? id : `${id}-${event.replace('.', '-')}`;
    return html`<label class="check" for="${boxId}"><input type="checkbox" id="${boxId}" name="events[]" value="${event}"${chosen.includes(event) ? html` checked` : ''}${own.length > 0 ? html` aria-describedby="${id}-error"` : ''}> <code>${event}</code></label>`;
  });
  return html`<fieldset class="field">
<legend>${view.t.webhooks.fields.events}</legend>
${own.length > 0 ? html`<p class="field-error" id="${id}-error">${own.join(' ')}</p>` : ''}
${boxes}
</fieldset>`;
}

/** GET/POST /webhooks/new and /webhooks/:id/edit: a refused form comes back as typed. */
export function webhookFormMain(
  view: View,
  target: { action: string; title: string; submit: string; editing: boolean },
  values: WebhookFormValues,
  errors?: FieldErrors,
): RawHtml {
  const t = view.t.webhooks;
  const f = t.fields;
  const formats = WEBHOOK_FORMATS.map((value) => ({ value, label: t.formats[value] }));
  return html`<h1>${target.title}</h1>
${errorSummary(view, errors)}
<form method="post" action="${target.action}" class="stack" novalidate>
${csrfField(view)}
${textField({ name: 'url', type: 'url', label: f.url, hint: f.urlHint, value: values.url, errors, required: true, maxlength: WEBHOOK_LIMITS.urlMax, autocomplete: 'off' })}
${eventsField(view, values.events, errors)}
${selectField({ name: 'format', label: f.format, hint: f.formatHint, options: formats, value: values.format, errors })}
${target.editing ? checkbox({ name: 'enabled', label: f.enabled, checked: values.enabled, value: 'true', uncheckedValue: 'false', errors }) : ''}
<div class="actions"><button type="submit">${target.submit}</button> <a href="/webhooks">${view.t.common.cancel}</a></div>
</form>`;
}

/** POST /webhooks/new's answer: the secret, shown this once. */
export function webhookCreatedMain(view: View, webhook: Webhook, secret: string): RawHtml {
  const t = view.t.webhooks;
  return html`<h1>${t.createdTitle}</h1>
<p><code class="url">${webhook.url}</code> · ${t.formats[webhook.format]}</p>
<p>${t.secretIntro}</p>
<p><strong>${t.secretLabel}:</strong> <code class="secret mono">${secret}</code> ${copyButton(view, secret, t.secretLabel)}</p>
<p><a href="/webhooks">${t.backToList}</a></p>`;
}

/** GET /webhooks/:id/delete: asks; the POST deletes. */
export function webhookDeleteMain(view: View, webhook: Webhook): RawHtml {
  const t = view.t.webhooks;
  return html`<h1>${t.deleteTitle}</h1>
<p><code class="url">${webhook.url}</code></p>
<p>${t.deleteEffect}</p>
<form method="post" action="/webhooks/${webhook.id}/delete" class="actions">
${csrfField(view)}
<button type="submit" class="danger">${t.confirmDelete}</button>
<a href="/webhooks">${view.t.common.cancel}</a>
</form>`;
}
