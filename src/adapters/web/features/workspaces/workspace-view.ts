import type { FieldErrors } from '../../../../core/shared/errors.ts';
import { ROLES, SCOPES, roleAllows, type Role } from '../../../../core/workspaces/policy.ts';
import type { Invitation, Member, WorkspaceOfUser } from '../../../../core/workspaces/workspace.ts';
import type { WorkspaceKey } from '../../../../core/workspaces/workspace-keys-service.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import {
  checkbox,
  copyButton,
  csrfField,
  errorSummary,
  postButton,
  selectField,
  textField,
} from '../../ui/components.ts';
import type { View } from '../../app/view.ts';
import { text, timeZoneOptions, type Form } from '../account/account-views.ts';
import { workspaceName } from '../../ui/workspace-name.ts';

/** Which form failed (its values kept, its errors named), or what was made and is shown once. */
export type WorkspacePageState =
  | { form: 'settings' | 'members' | 'invite' | 'key'; values: Form; errors: FieldErrors }
  | { made: 'invitation'; email: string; link: string }
  | { made: 'key'; name: string; apiKey: string }
  | null;

export interface WorkspacePageData {
  workspace: WorkspaceOfUser;
  members: readonly Member[];
  invitations: readonly Invitation[] | null;
  keys: readonly WorkspaceKey[];
  personId: number;
}

function failed(
  state: WorkspacePageState,
  form: 'settings' | 'members' | 'invite' | 'key',
): { values: Form; errors: FieldErrors } | null {
  return state !== null && 'form' in state && state.form === form ? state : null;
}

function roleOptions(view: View, mine: Role) {
  // Only an owner makes owners.
  return ROLES.filter((r) => r !== 'owner' || mine === 'owner').map((r) => ({
    value: r,
    label: view.t.workspaces.roles[r] ?? r,
  }));
}

function settings(view: View, data: WorkspacePageData, state: WorkspacePageState): RawHtml {
  const w = view.t.workspaces;
  const s = w.settings;
  const ws = data.workspace;
  if (!roleAllows(ws.role, 'workspace.settings')) {
    return html`<section class="settings-section" aria-labelledby="settings-title"><h2 id="settings-title">${s.title}</h2>
<dl class="facts"><dt>${w.name}</dt><dd>${workspaceName(view, ws)}</dd><dt>${s.timezone}</dt><dd>${ws.timezone}</dd><dt>${s.requireTwoFactor}</dt><dd>${ws.requireTwoFactor ? view.t.common.yes : view.t.common.no}</dd></dl>
<p class="muted">${s.ownerOnly}</p></section>`;
  }
  const f = failed(state, 'settings');
  const values = f?.values ?? { name: ws.name, timezone: ws.timezone, require_2fa: ws.requireTwoFactor ? '1' : '0' };
  const zone = text(values, 'timezone') || ws.timezone;
  return html`<section class="settings-section" aria-labelledby="settings-title"><h2 id="settings-title">${s.title}</h2>
${errorSummary(view, f?.errors)}
<form method="post" action="/account/workspaces/${ws.id}/settings" class="stack" novalidate>
${csrfField(view)}
${nameField(view, ws, values, f?.errors)}
${selectField({ name: 'timezone', label: s.timezone, hint: s.timezoneHint, options: timeZoneOptions(zone), value: zone, errors: f?.errors })}
${checkbox({ name: 'require_2fa', label: s.requireTwoFactor, checked: text(values, 'require_2fa') === '1', uncheckedValue: '0', errors: f?.errors })}
<div class="actions"><button type="submit">${view.t.common.save}</button></div>
</form>
</section>`;
}

/**
 * A team workspace's name. A personal one has none of its own to set: it is "Personal" on every
 * page, and its stored name is the person's, changed on the account page.
 */
function nameField(view: View, ws: WorkspaceOfUser, values: Form, errors: FieldErrors | undefined): RawHtml {
  const w = view.t.workspaces;
  if (ws.personal)
    return html`<p class="muted">${w.settings.personalName} <a href="/account">${w.settings.accountLink}</a></p>`;
  return textField({
    name: 'name',
    label: w.name,
    value: text(values, 'name'),
    errors,
    maxlength: 255,
    required: true,
    autocomplete: 'off',
  });
}

/** What cannot be undone stands apart, last on the page, as on the account page. */
function deletion(view: View, data: WorkspacePageData): RawHtml {
  const w = view.t.workspaces;
  const ws = data.workspace;
  if (ws.personal || !roleAllows(ws.role, 'workspace.delete')) return html``;
  return html`<section class="settings-section danger-zone" aria-labelledby="delete-title"><h2 id="delete-title">${w.delete.title(ws.name)}</h2>
<p>${w.delete.intro}</p>
<p><a class="button danger" href="/account/workspaces/${ws.id}/delete">${w.delete.link}</a></p>
</section>`;
}

function memberRow(view: View, data: WorkspacePageData, member: Member): RawHtml {
  const p = view.t.workspaces.people;
  const mine = data.workspace.role;
  const self = member.userId === data.personId;
  const manages = roleAllows(mine, 'members.manage') && (member.role !== 'owner' || mine === 'owner');
  const base = `/account/workspaces/${data.workspace.id}/members/${member.userId}`;
  const roleCell = manages
    ? html`<form method="post" action="${base}/role" class="inline">${csrfField(view)}<label class="visually-hidden" for="role-${member.userId}">${p.changeNamed(member.name)}</label><select id="role-${member.userId}" name="role">${roleOptions(view, mine).map((o) => html`<option value="${o.value}"${o.value === member.role ? html` selected` : ''}>${o.label}</option>`)}</select> <button type="submit" class="secondary small">${p.save}</button></form>`
    : html`${view.t.workspaces.roles[member.role]}`;
  // The last owner cannot leave (make another owner first): no button that could only fail.
  const lastOwner = member.role === 'owner' && data.members.filter((m) => m.role === 'owner').length === 1;
  const action = self
    ? data.workspace.personal || lastOwner
      ? ''
      : postButton(view, `${base}/remove`, p.leave, { danger: true })
    : manages
      ? postButton(view, `${base}/remove`, p.remove, { danger: true, accessibleName: p.removeNamed(member.name) })
      : '';
  return html`<tr><td>${member.name}${self ? html` <span class="muted">${p.you}</span>` : ''}</td><td data-label="${p.email}">${member.email}</td><td data-label="${view.t.workspaces.invites.role}">${roleCell}</td><td class="date" data-label="${p.joined}">${view.fmt.dateTime(member.joinedAt)}</td><td>${action}</td></tr>`;
}

function members(view: View, data: WorkspacePageData, state: WorkspacePageState): RawHtml {
  const p = view.t.workspaces.people;
  // A refused change of a row (the last owner) is said above the table: the rows' fields have no one id.
  const f = failed(state, 'members');
  return html`<section class="settings-section" aria-labelledby="members-title"><h2 id="members-title">${p.title}</h2>
${
  f
    ? html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1" autofocus><h2 id="error-summary-title">${view.t.common.errorSummaryTitle}</h2><ul>${Object.values(
        f.errors,
      )
        .flat()
        .map((m) => html`<li>${m}</li>`)}</ul></div>`
    : ''
}
<div class="table-wrap" tabindex="0" role="region" aria-label="${p.caption}"><table class="table-stack">
<caption class="visually-hidden">${p.caption}</caption>
<thead><tr><th scope="col">${view.t.workspaces.name}</th><th scope="col">${p.email}</th><th scope="col">${view.t.workspaces.invites.role}</th><th scope="col">${p.joined}</th><th scope="col">${view.t.common.actions}</th></tr></thead>
<tbody>${data.members.map((m) => memberRow(view, data, m))}</tbody>
</table></div></section>`;
}

function madeLink(view: View, label: string, warning: string, value: string, id: string): RawHtml {
  return html`<section class="card" aria-labelledby="${id}-title">
<h3 id="${id}-title">${label}</h3>
<p id="${id}-warning"><strong>${warning}</strong></p>
<div class="field"><label for="${id}">${label}</label>
<input id="${id}" class="mono" type="text" value="${value}" readonly autocomplete="off" spellcheck="false" aria-describedby="${id}-warning"></div>
<div class="actions">${copyButton(view, value)}</div>
</section>`;
}

function invitations(view: View, data: WorkspacePageData, state: WorkspacePageState): RawHtml {
  const i = view.t.workspaces.invites;
  if (data.invitations === null) return html``;
  if (data.workspace.personal)
    return html`<section class="settings-section" aria-labelledby="invites-title"><h2 id="invites-title">${i.title}</h2><p class="muted">${i.personal}</p></section>`;
  const f = failed(state, 'invite');
  const made = state !== null && 'made' in state && state.made === 'invitation' ? state : null;
  const rows = data.invitations.map(
    (inv) =>
      html`<tr><td>${inv.email}</td><td data-label="${i.role}">${view.t.workspaces.roles[inv.role]}</td><td class="date" data-label="${i.expires}">${inv.expiresAt <= Date.now() ? i.expired : view.fmt.dateTime(inv.expiresAt)}</td><td>${postButton(view, `/account/workspaces/${data.workspace.id}/invitations/${inv.id}/revoke`, i.revoke, { danger: true, accessibleName: i.revokeNamed(inv.email) })}</td></tr>`,
  );
  return html`<section class="settings-section" aria-labelledby="invites-title"><h2 id="invites-title">${i.title}</h2>
${made ? madeLink(view, i.madeLabel(made.email), i.madeWarning, made.link, 'made-invitation') : ''}
${
  rows.length === 0
    ? html`<p class="muted">${i.none}</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="${i.caption}"><table class="table-stack"><caption class="visually-hidden">${i.caption}</caption>
<thead><tr><th scope="col">${i.email}</th><th scope="col">${i.role}</th><th scope="col">${i.expires}</th><th scope="col">${view.t.common.actions}</th></tr></thead><tbody>${rows}</tbody></table></div>`
}
<h3 id="invite-title">${i.inviteTitle}</h3>
${errorSummary(view, f?.errors)}
<form method="post" action="/account/workspaces/${data.workspace.id}/invitations" class="stack" novalidate aria-labelledby="invite-title">
${csrfField(view)}
${textField({ name: 'email', type: 'email', label: i.email, value: text(f?.values ?? {}, 'email'), errors: f?.errors, required: true, autocomplete: 'off' })}
${selectField({ name: 'role', label: i.role, options: roleOptions(view, data.workspace.role), value: text(f?.values ?? {}, 'role') || 'viewer', errors: f?.errors })}
<div class="actions"><button type="submit">${i.invite}</button></div>
</form></section>`;
}

function keyRow(view: View, data: WorkspacePageData, k: WorkspaceKey, showUser: boolean): RawHtml {
  const t = view.t.workspaces.keys;
  const name = k.key.name ?? k.key.prefix;
  return html`<tr><td>${name}</td><td class="mono" data-label="${t.prefix}">${k.key.prefix}…</td><td data-label="${t.scopes}">${k.key.scopes === null ? t.allScopes : k.key.scopes.join(', ')}</td>
<td class="date" data-label="${t.created}">${view.fmt.dateTime(k.key.createdAt)}</td><td data-label="${t.lastUsed}">${k.key.lastUsedAt === null ? t.never : view.fmt.dateTime(k.key.lastUsedAt)}</td>
<td data-label="${t.expires}">${k.key.expiresAt === null ? t.never : view.fmt.dateTime(k.key.expiresAt)}</td>
${showUser ? html`<td data-label="${t.user}">${k.userName}</td>` : ''}
<td>${k.key.revokedAt === null ? postButton(view, `/account/workspaces/${data.workspace.id}/api-keys/${k.key.id}/revoke`, t.revoke, { danger: true, accessibleName: t.revokeNamed(name) }) : view.t.account.keys.revokedOn(view.fmt.dateTime(k.key.revokedAt))}</td></tr>`;
}

function keys(view: View, data: WorkspacePageData, state: WorkspacePageState): RawHtml {
  const t = view.t.workspaces.keys;
  const f = failed(state, 'key');
  const made = state !== null && 'made' in state && state.made === 'key' ? state : null;
  const showUser = roleAllows(data.workspace.role, 'keys.all');
  const ticked = new Set([(f?.values ?? {}).scopes].flat().filter((s): s is string => typeof s === 'string'));
  return html`<section class="settings-section" aria-labelledby="keys-title"><h2 id="keys-title">${t.title}</h2>
${made ? madeLink(view, t.madeLabel(made.name), t.madeWarning, made.apiKey, 'made-key') : ''}
${
  data.keys.length === 0
    ? html`<p class="muted">${t.none}</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="${t.caption}"><table class="table-stack"><caption class="visually-hidden">${t.caption}</caption>
<thead><tr><th scope="col">${t.name}</th><th scope="col">${t.prefix}</th><th scope="col">${t.scopes}</th><th scope="col">${t.created}</th><th scope="col">${t.lastUsed}</th><th scope="col">${t.expires}</th>${showUser ? html`<th scope="col">${t.user}</th>` : ''}<th scope="col">${view.t.common.actions}</th></tr></thead>
<tbody>${data.keys.map((k) => keyRow(view, data, k, showUser))}</tbody></table></div>`
}
<h3 id="new-key-title">${t.createTitle}</h3>
${errorSummary(view, f?.errors)}
<form method="post" action="/account/workspaces/${data.workspace.id}/api-keys" class="stack" novalidate aria-labelledby="new-key-title">
${csrfField(view)}
${textField({ name: 'name', label: t.name, value: text(f?.values ?? {}, 'name'), errors: f?.errors, maxlength: 255, required: true, autocomplete: 'off' })}
<fieldset${f?.errors.scopes ? html` aria-describedby="f-scopes-error"` : ''}><legend>${t.scopes}</legend><p class="hint">${t.scopesHint}</p>
<div class="check-grid">${SCOPES.map((scope) => html`<label class="check" for="scope-${scope.replace(':', '-')}"><input type="checkbox" id="scope-${scope.replace(':', '-')}" name="scopes" value="${scope}"${ticked.has(scope) ? html` checked` : ''}> ${scope}</label>`)}</div>
${f?.errors.scopes ? html`<p class="field-error" id="f-scopes-error">${f.errors.scopes.join(' ')}</p>` : ''}
</fieldset>
${textField({ name: 'expires_at', type: 'date', label: t.expires, hint: t.expiresHint, value: text(f?.values ?? {}, 'expires_at'), errors: f?.errors })}
<div class="actions"><button type="submit">${t.create}</button></div>
</form></section>`;
}

/** /account/workspaces/{id}: settings, members, invitations and keys, each as the role allows. */
export function workspacePage(view: View, data: WorkspacePageData, state: WorkspacePageState): RawHtml {
  const w = view.t.workspaces;
  const ws = data.workspace;
  return html`<h1>${workspaceName(view, ws)}</h1>
<p><a href="/account/workspaces">${w.back}</a>${roleAllows(ws.role, 'members.manage') ? html` · <a href="/account/workspaces/${ws.id}/audit">${w.audit}</a>` : ''}${roleAllows(ws.role, 'integrations.manage') ? html` · <a href="/account/workspaces/${ws.id}/integrations">${w.integrations}</a>` : ''}</p>
<p>${w.role}: <strong>${w.roles[ws.role]}</strong>${ws.personal ? html` · ${w.personal}` : ''}</p>
${settings(view, data, state)}
${members(view, data, state)}
${invitations(view, data, state)}
${keys(view, data, state)}
${deletion(view, data)}`;
}

/**
 * A workspace that requires two-factor sign-in, seen by a member who has not turned it on: what
 * it is, where to turn it on, and the way out (issue 33: enrol before anything else, or leave).
 */
export function lockedWorkspacePage(view: View, workspace: WorkspaceOfUser, personId: number): RawHtml {
  const w = view.t.workspaces;
  return html`<h1>${workspaceName(view, workspace)}</h1>
<p><a href="/account/workspaces">${w.back}</a></p>
<p>${w.role}: <strong>${w.roles[workspace.role]}</strong></p>
<p>${w.locked.notice} <a href="/account/security">${w.locked.turnOn}</a></p>
<p>${postButton(view, `/account/workspaces/${workspace.id}/members/${personId}/remove`, w.people.leave, { danger: true })}</p>`;
}
