import type { AuditEntry } from '../../../../core/audit/audit-entry.ts';
import type { AuditFilterInput } from '../../../../core/audit/audit-filter.ts';
import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { Page } from '../../../../core/shared/page.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { errorSummary, pagination, textField, withQuery } from '../../ui/components.ts';
import type { View } from '../../app/view.ts';

/** The page's query as typed: every filter kept as text, so a refused one comes back as it was. */
export type AuditPageQuery = Record<keyof AuditFilterInput | 'page', string | undefined>;

const FILTERS = ['actor', 'action', 'target_type', 'target_id', 'from', 'to'] as const;

const shown = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

function changes(view: View, entry: AuditEntry): RawHtml {
  const a = view.t.audit;
  const items = Object.entries(entry.changes);
  if (items.length === 0) return html`${a.none}`;
  return html`<ul class="audit-changes">${items.map(([field, change]) =>
    change === 'changed'
      ? html`<li><span class="mono">${field}</span>: ${a.changed}</li>`
      : html`<li><span class="mono">${field}</span>: <del>${shown(change[0])}</del> → <ins>${shown(change[1])}</ins></li>`,
  )}</ul>`;
}

function who(view: View, entry: AuditEntry): RawHtml {
  const a = view.t.audit;
  const person = entry.actor.userId === null ? a.operator : (entry.actorName ?? a.unknownPerson(entry.actor.userId));
  const key =
    entry.actor.keyId === null
      ? ''
      : html`<br><span class="muted">${a.throughKey(entry.keyName ?? `#${entry.actor.keyId}`)}</span>`;
  return html`${person}${key}`;
}

function table(view: View, entries: readonly AuditEntry[]): RawHtml {
  const a = view.t.audit;
  const c = a.columns;
  if (entries.length === 0) return html`<p class="muted">${a.empty}</p>`;
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${a.caption}"><table class="table-stack">
<caption>${a.caption}</caption>
<thead><tr><th scope="col">${c.at}</th><th scope="col">${c.actor}</th><th scope="col">${c.via}</th><th scope="col">${c.action}</th><th scope="col">${c.target}</th><th scope="col">${c.changes}</th></tr></thead>
<tbody>${entries.map(
    (e) => html`<tr>
<td class="date" data-label="${c.at}">${view.fmt.dateTime(e.at)}</td>
<td data-label="${c.actor}">${who(view, e)}</td>
<td data-label="${c.via}">${a.via[e.actor.via] ?? e.actor.via}</td>
<td data-label="${c.action}" class="mono">${e.action}</td>
<td data-label="${c.target}">${e.target.type} ${e.target.id}</td>
<td data-label="${c.changes}">${changes(view, e)}</td>
</tr>`,
  )}</tbody>
</table></div>`;
}

function filterForm(view: View, path: string, q: AuditPageQuery, errors: FieldErrors | undefined): RawHtml {
  const a = view.t.audit;
  const f = a.fields;
  const filtered = FILTERS.some((name) => q[name]);
  return html`<form method="get" action="${path}" class="toolbar" role="search" aria-label="${a.filters}" novalidate>
${textField({ name: 'actor', label: f.actor, value: q.actor ?? '', inputmode: 'numeric', maxlength: 10, errors, autocomplete: 'off' })}
${textField({ name: 'action', label: f.action, hint: a.actionHint, value: q.action ?? '', maxlength: 65, errors, autocomplete: 'off' })}
${textField({ name: 'target_type', label: f.target_type, value: q.target_type ?? '', maxlength: 32, errors, autocomplete: 'off' })}
${textField({ name: 'target_id', label: f.target_id, value: q.target_id ?? '', inputmode: 'numeric', maxlength: 10, errors, autocomplete: 'off' })}
${textField({ name: 'from', label: f.from, type: 'date', value: q.from ?? '', errors })}
${textField({ name: 'to', label: f.to, type: 'date', value: q.to ?? '', errors })}
<div class="actions"><button type="submit">${a.apply}</button>${filtered ? html`<a href="${path}">${a.clear}</a>` : ''}</div>
</form>`;
}

export interface AuditPageInput {
  path: string;
  query: AuditPageQuery;
  /** null: the filters were refused (errors says why) and nothing was read. */
  page: Page<AuditEntry> | null;
  errors?: FieldErrors | undefined;
}

export function auditPage(view: View, p: AuditPageInput): RawHtml {
  const a = view.t.audit;
  const filters = Object.fromEntries(FILTERS.map((name) => [name, p.query[name]]));
  const csv = withQuery(`${p.path}.csv`, filters, {});
  return html`<h1>${a.title}</h1>
<p><a href="/account">${a.back}</a></p>
<p>${a.intro}</p>
${errorSummary(view, p.errors)}
${filterForm(view, p.path, p.query, p.errors)}
${
  p.page
    ? html`<p><a href="${csv}" download>${a.download}</a></p>
${table(view, p.page.items)}
${pagination(view, { page: p.page.page, perPage: p.page.perPage, total: p.page.total, hrefFor: (n) => withQuery(p.path, filters, { page: n }) })}`
    : ''
}`;
}
