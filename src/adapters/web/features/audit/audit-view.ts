import type { AuditEntry } from '../../../../core/audit/audit-entry.ts';
import type { AuditFilterInput } from '../../../../core/audit/audit-filter.ts';
import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { Page } from '../../../../core/shared/page.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import type { Member } from '../../../../core/workspaces/workspace.ts';
import { errorSummary, pagination, selectField, textField, withQuery, type SelectOption } from '../../ui/components.ts';
import type { View } from '../../app/view.ts';

/** The page's query as typed: every filter kept as text, so a refused one comes back as it was. */
export type AuditPageQuery = Record<keyof AuditFilterInput | 'page', string | undefined>;

const FILTERS = ['actor', 'action', 'target_type', 'target_id', 'from', 'to'] as const;

/** A changed value as people read it: lists comma-separated, records as "key: value", no JSON. */
function shown(view: View, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? view.t.audit.yes : view.t.audit.no;
  if (Array.isArray(value)) return value.map((v) => shown(view, v)).join(', ');
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${shown(view, v)}`)
      .join('; ');
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return '';
}

function changes(view: View, entry: AuditEntry): RawHtml {
  const a = view.t.audit;
  const items = Object.entries(entry.changes);
  if (items.length === 0) return html`${a.none}`;
  return html`<ul class="audit-changes">${items.map(([field, change]) =>
    change === 'changed'
      ? html`<li><span class="mono">${field}</span>: ${a.changed}</li>`
      : html`<li><span class="mono">${field}</span>: <del>${shown(view, change[0])}</del> → <ins>${shown(view, change[1])}</ins></li>`,
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
<td data-label="${c.target}">${a.target(e.target.type, String(e.target.id))}</td>
<td data-label="${c.changes}">${changes(view, e)}</td>
</tr>`,
  )}</tbody>
</table></div>`;
}

/** The people to filter by: the members by name and email, and a former one already chosen by id. */
function actorOptions(view: View, members: readonly Member[], chosen: string | undefined): SelectOption[] {
  const a = view.t.audit;
  const options = [
    { value: '', label: a.anyone },
    ...members.map((m) => ({ value: String(m.userId), label: a.member(m.name, m.email) })),
  ];
  if (chosen && !options.some((o) => o.value === chosen))
    options.push({ value: chosen, label: /^\d+$/.test(chosen) ? a.unknownPerson(Number(chosen)) : chosen });
  return options;
}

function filterForm(view: View, p: Pick<AuditPageInput, 'path' | 'members' | 'errors'>, q: AuditPageQuery): RawHtml {
  const a = view.t.audit;
  const f = a.fields;
  const { path, errors } = p;
  const filtered = FILTERS.some((name) => q[name]);
  return html`<form method="get" action="${path}" class="toolbar" role="search" aria-label="${a.filters}" novalidate>
${selectField({ name: 'actor', label: f.actor, options: actorOptions(view, p.members, q.actor), value: q.actor ?? '', errors })}
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
  /** The workspace's members, for the Person filter. */
  members: readonly Member[];
}

export function auditPage(view: View, p: AuditPageInput): RawHtml {
  const a = view.t.audit;
  const filters = Object.fromEntries(FILTERS.map((name) => [name, p.query[name]]));
  const csv = withQuery(`${p.path}.csv`, filters, {});
  return html`<h1>${a.title}</h1>
<p><a href="/account">${a.back}</a></p>
<p>${a.intro}</p>
${errorSummary(view, p.errors)}
${filterForm(view, p, p.query)}
${
  p.page
    ? html`<p><a href="${csv}" download>${a.download}</a></p>
${table(view, p.page.items)}
${pagination(view, { page: p.page.page, perPage: p.page.perPage, total: p.page.total, hrefFor: (n) => withQuery(p.path, filters, { page: n }) })}`
    : ''
}`;
}
