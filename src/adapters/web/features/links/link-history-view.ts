import type { LinkVersion } from '../../../../core/links/link-history.ts';
import type { Schedule } from '../../../../core/links/link-schedules.ts';
import type { Page } from '../../../../core/shared/page.ts';
import type { FieldErrors } from '../../../../core/shared/errors.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { csrfField, errorSummary, pagination, postButton, selectField, textField } from '../../ui/components.ts';
import type { View } from '../../app/view.ts';

/** A list of names (a version's tags) reads as the names; none as "empty", as any cleared field. */
const isNames = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

const shown = (view: View, value: unknown): string =>
  value === null || value === undefined || value === '' || (isNames(value) && value.length === 0)
    ? view.t.history.empty
    : typeof value === 'string'
      ? value
      : isNames(value)
        ? value.join(', ')
        : JSON.stringify(value);

/** A version's changes, field by field: old → new, a secret only "changed". */
function changesList(view: View, changes: LinkVersion['changes'] | Record<string, unknown>, diff = true): RawHtml {
  const t = view.t.history;
  const entries = Object.entries(changes);
  if (entries.length === 0) return html`<p class="muted">${t.noChanges}</p>`;
  return html`<ul class="plain url">${entries.map(([field, change]) => {
    if (change === 'changed' || !diff)
      return html`<li><code>${field}</code>: ${diff ? t.changed : shown(view, change)}</li>`;
    const [was, now] = change as [unknown, unknown];
    return html`<li><code>${field}</code>: <del>${shown(view, was)}</del> → <ins>${shown(view, now)}</ins></li>`;
  })}</ul>`;
}

function who(view: View, v: LinkVersion): string {
  const t = view.t.history;
  const name = v.actor.userId === null ? t.operator : (v.actorName ?? t.gone);
  return `${t.by(name)} ${t.via[v.actor.via] ?? v.actor.via}`;
}

/** The timeline of /links/{id}/history: each version, what it changed, and a way to restore it. */
export function historyPage(
  view: View,
  p: { id: number; url: string; page: Page<LinkVersion>; newest: number | null },
): RawHtml {
  const t = view.t.history;
  const writes = view.can('links.write');
  const items = p.page.items.map(
    (v) => html`<li class="card"><h2>${t.version(v.version)}</h2>
<p class="muted"><time datetime="${new Date(v.at).toISOString()}">${view.fmt.dateTime(v.at)}</time> · ${who(view, v)}</p>
${v.restoredFrom === null ? '' : html`<p>${t.restoredFrom(v.restoredFrom)}</p>`}
${changesList(view, v.changes)}
${writes && v.version !== p.newest ? html`<p><a href="/links/${p.id}/history/${v.version}/restore">${t.restore(v.version)}</a></p>` : ''}</li>`,
  );
  return html`<h1>${t.pageTitle(p.url)}</h1>
<p>${t.intro}</p>
<p>${writes ? html`<a href="/links/${p.id}/schedule">${t.schedule.title}</a> · ` : ''}<a href="/links/${p.id}/edit">${view.t.conversions.editLink}</a></p>
<ol class="plain timeline" aria-label="${t.caption}">${items}</ol>
${pagination(view, { page: p.page.page, perPage: p.page.perPage, total: p.page.total, hrefFor: (n) => `/links/${p.id}/history?page=${n}` })}`;
}

/** The question before a restore: what the version changed, and the button. */
export function restorePage(view: View, p: { id: number; version: LinkVersion; errors?: FieldErrors }): RawHtml {
  const t = view.t.history;
  const n = p.version.version;
  return html`<h1>${t.confirmTitle(n)}</h1>
${errorSummary(view, p.errors)}
${changesList(view, p.version.changes)}
<p>${t.confirmQuestion}</p>
<form method="post" action="/links/${p.id}/history/${n}/restore" class="actions">
${csrfField(view)}
<button type="submit">${t.confirm}</button>
<a href="/links/${p.id}/history">${view.t.common.cancel}</a>
</form>`;
}

export type ScheduleForm = Partial<
  Record<'at_date' | 'at_time' | 'url' | 'state' | 'expiration_date' | 'expiration_time', string>
>;

/** /links/{id}/schedule: the form of a scheduled change, and the link's schedules with Cancel. */
export function schedulePage(
  view: View,
  p: { id: number; url: string; zone: string; list: Page<Schedule>; values?: ScheduleForm; errors?: FieldErrors },
): RawHtml {
  const t = view.t.history.schedule;
  const values = p.values ?? {};
  const errors = p.errors;
  return html`<h1>${t.pageTitle(p.url)}</h1>
${errorSummary(view, errors)}
<p>${t.intro(p.zone)}</p>
${view.can('links.write') ? scheduleForm(view, p.id, values, errors) : ''}
${scheduleTable(view, p.id, p.list)}`;
}

function scheduleForm(view: View, id: number, values: ScheduleForm, errors: FieldErrors | undefined): RawHtml {
  const t = view.t.history.schedule;
  const state = [
    { value: '', label: t.unchanged },
    { value: 'enable', label: t.enable },
    { value: 'disable', label: t.disable },
  ];
  return html`<form method="post" action="/links/${id}/schedule" novalidate>
${csrfField(view)}
${textField({ name: 'at_date', label: t.date, type: 'date', value: values.at_date, errors, required: true })}
${textField({ name: 'at_time', label: t.time, type: 'time', value: values.at_time, errors, required: true })}
${textField({ name: 'url', label: t.url, type: 'url', value: values.url, errors, inputmode: 'url', maxlength: 2048, autocomplete: 'off' })}
${selectField({ name: 'state', label: t.state, options: state, value: values.state ?? '', errors })}
${textField({ name: 'expiration_date', label: t.expirationDate, type: 'date', value: values.expiration_date, errors })}
${textField({ name: 'expiration_time', label: t.expirationTime, type: 'time', value: values.expiration_time, errors })}
<div class="actions"><button type="submit">${t.submit}</button> <a href="/links/${id}/history">${view.t.history.title}</a></div>
</form>`;
}

function scheduleTable(view: View, id: number, list: Page<Schedule>): RawHtml {
  const t = view.t.history.schedule;
  const c = t.columns;
  if (list.total === 0) return html`<p class="muted">${t.none}</p>`;
  const rows = list.items.map((s) => {
    const at = view.fmt.dateTime(s.at);
    const cancel =
      s.status === 'pending'
        ? postButton(view, `/links/${id}/schedule/${s.id}/cancel`, t.cancel, { accessibleName: t.cancelName(at) })
        : '';
    return html`<tr><td><time datetime="${new Date(s.at).toISOString()}">${at}</time></td><td>${changesList(view, s.changes as Record<string, unknown>, false)}</td><td>${t.status[s.status] ?? s.status}${s.reason ? html`: ${s.reason}` : ''}</td><td>${cancel}</td></tr>`;
  });
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${t.caption}"><table><caption>${t.caption}</caption>
<thead><tr><th scope="col">${c.at}</th><th scope="col">${c.changes}</th><th scope="col">${c.status}</th><th scope="col">${c.action}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}
