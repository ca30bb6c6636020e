import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { Session } from '../../../../core/accounts/account.ts';
import { describeUserAgent } from '../../../ua/user-agent.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { checkbox, csrfField, errorSummary, postButton, selectField, textField } from '../../ui/components.ts';
import type { View } from '../../app/view.ts';

export type Form = Record<string, unknown>;

export const text = (form: Form, name: string): string => (typeof form[name] === 'string' ? form[name] : '');

/** What failed on the account page, so only that form shows its errors and keeps its values. */
export type AccountPageState =
  | { form: 'profile'; values: Form; errors: FieldErrors }
  | { form: 'password' | 'notifications'; errors: FieldErrors }
  | null;

/** Every zone the runtime knows, UTC first; an account's zone outside the list (an alias) is kept. */
export function timeZoneOptions(current: string) {
  const zones = ['UTC', ...Intl.supportedValuesOf('timeZone')];
  if (!zones.includes(current)) zones.unshift(current);
  return zones.map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') }));
}

function sectionNav(view: View): RawHtml {
  const a = view.t.account;
  return html`<nav aria-label="${a.sectionsLabel}"><ul class="actions">
<li><a href="#profile-title">${a.profile.title}</a></li>
<li><a href="#notifications-title">${a.notifications.title}</a></li>
<li><a href="#password-title">${a.password.title}</a></li>
<li><a href="#sessions-title">${a.sessions.title}</a></li>
<li><a href="/account/security">${view.t.security.title}</a></li>
<li><a href="/account/api-keys">${a.keys.title}</a></li>
<li><a href="/account/delete">${a.remove.title}</a></li>
</ul></nav>`;
}

function profileSection(view: View, state: AccountPageState): RawHtml {
  const p = view.t.account.profile;
  const account = view.account!;
  const failed = state?.form === 'profile' ? state : null;
  const values: Form = failed
    ? failed.values
    : { name: account.name, email: account.email, timezone: account.timezone };
  const errors = failed?.errors;
  const zone = text(values, 'timezone') || account.timezone;
  return html`<section class="settings-section" aria-labelledby="profile-title">
<h2 id="profile-title">${p.title}</h2>
${errorSummary(view, errors)}
<form method="post" action="/account/profile" class="stack" novalidate>
${csrfField(view)}
${textField({ name: 'name', label: p.name, value: text(values, 'name'), errors, autocomplete: 'name', maxlength: 255 })}
${textField({ name: 'email', label: p.email, type: 'email', value: text(values, 'email'), errors, autocomplete: 'email', required: true, maxlength: 255 })}
${selectField({ name: 'timezone', label: p.timezone, hint: p.timezoneHint, options: timeZoneOptions(zone), value: zone, errors })}
<div class="actions"><button type="submit">${p.save}</button></div>
</form>
</section>`;
}

/** The broken-links digest, on or off: a checkbox with a hidden "0" before it, so an unticked box is sent too. */
function notificationsSection(view: View, digest: boolean, state: AccountPageState): RawHtml {
  const errors = state?.form === 'notifications' ? state.errors : undefined;
  const n = view.t.account.notifications;
  return html`<section class="settings-section" aria-labelledby="notifications-title">
<h2 id="notifications-title">${n.title}</h2>
<form method="post" action="/account/notifications" class="stack" novalidate>
${csrfField(view)}
${checkbox({ name: 'health_digest', label: n.digest, hint: n.digestHint, checked: digest, uncheckedValue: '0', errors })}
<div class="actions"><button type="submit">${n.save}</button></div>
</form>
</section>`;
}

function passwordSection(view: View, state: AccountPageState): RawHtml {
  const p = view.t.account.password;
  const errors = state?.form === 'password' ? state.errors : undefined;
  return html`<section class="settings-section" aria-labelledby="password-title">
<h2 id="password-title">${p.title}</h2>
<p>${p.intro}</p>
${errorSummary(view, errors)}
<form method="post" action="/account/password" class="stack" novalidate>
${csrfField(view)}
<input type="text" name="username" value="${view.account!.email}" autocomplete="username" hidden>
${textField({ name: 'current_password', label: p.current, type: 'password', errors, autocomplete: 'current-password', required: true })}
${textField({ name: 'new_password', label: p.next, type: 'password', hint: p.nextHint, errors, autocomplete: 'new-password', required: true })}
${textField({ name: 'new_password_confirmation', label: p.confirmation, type: 'password', errors, autocomplete: 'new-password', required: true })}
<div class="actions"><button type="submit">${p.save}</button></div>
</form>
</section>`;
}

/** "Firefox on Ubuntu": the browser and system of a session, from its User-Agent. */
function deviceOf(view: View, userAgent: string | null): string {
  const s = view.t.account.sessions;
  if (!userAgent) return s.unknownDevice;
  const ua = describeUserAgent(userAgent);
  if (ua.browser && ua.platform) return s.browserOn(ua.browser, ua.platform);
  return ua.browser ?? ua.platform ?? s.unknownDevice;
}

function sessionRow(view: View, session: Session, currentId: number): RawHtml {
  const s = view.t.account.sessions;
  const device = deviceOf(view, session.userAgent);
  const started = view.fmt.dateTime(session.createdAt);
  const action =
    session.id === currentId
      ? html`<strong>${s.current}</strong>`
      : postButton(view, `/account/sessions/${session.id}/end`, s.signOut, {
          accessibleName: s.signOutNamed(device, started),
        });
  return html`<tr${session.id === currentId ? html` aria-current="true"` : ''}>
<td>${device}</td>
<td class="mono" data-label="${s.from}">${session.address ?? s.unknownAddress}</td>
<td class="date" data-label="${s.started}">${started}</td>
<td class="date" data-label="${s.lastSeen}">${view.fmt.dateTime(session.lastSeenAt)}</td>
<td>${action}</td>
</tr>`;
}

/**
 * The table's wrapper is a named, focusable region: on a narrow screen it scrolls sideways, and
 * with a single session (its row has no button) a keyboard could not otherwise reach it to scroll.
 */
export function sessionsSection(view: View, sessions: readonly Session[], currentId: number): RawHtml {
  const s = view.t.account.sessions;
  const others = sessions.some((x) => x.id !== currentId);
  return html`<section class="settings-section" aria-labelledby="sessions-title">
<h2 id="sessions-title">${s.title}</h2>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="sessions-title"><table class="table-stack">
<caption class="visually-hidden">${s.caption}</caption>
<thead><tr><th scope="col">${s.device}</th><th scope="col">${s.from}</th><th scope="col">${s.started}</th><th scope="col">${s.lastSeen}</th><th scope="col">${view.t.common.actions}</th></tr></thead>
<tbody>${sessions.map((x) => sessionRow(view, x, currentId))}</tbody>
</table></div>
${others ? html`<div class="actions">${postButton(view, '/account/sessions/end-others', s.endOthers)}</div>` : html`<p class="muted">${s.onlyThis}</p>`}
</section>`;
}

function keysAndDeletion(view: View): RawHtml {
  const a = view.t.account;
  return html`<section class="settings-section" aria-labelledby="keys-title">
<h2 id="keys-title">${a.keys.title}</h2>
<p>${a.keys.intro}</p>
<p><a href="/account/api-keys">${a.keys.manage}</a></p>
</section>
<section class="settings-section danger-zone" aria-labelledby="delete-title">
<h2 id="delete-title">${a.remove.title}</h2>
<p>${a.remove.intro}</p>
<p><a href="/account/delete">${a.remove.start}</a></p>
</section>`;
}

export function accountPage(
  view: View,
  sessions: readonly Session[],
  currentId: number,
  state: AccountPageState,
  digest: boolean,
): RawHtml {
  return html`<h1>${view.t.account.title}</h1>
${sectionNav(view)}
${profileSection(view, state)}
${notificationsSection(view, digest, state)}
${passwordSection(view, state)}
${sessionsSection(view, sessions, currentId)}
${keysAndDeletion(view)}`;
}

export function deletePage(view: View, values: Form, errors?: FieldErrors): RawHtml {
  const r = view.t.account.remove;
  const word = view.account!.email;
  return html`<h1>${r.title}</h1>
${errorSummary(view, errors)}
<p>${r.intro}</p>
<form method="post" action="/account/delete" class="stack" novalidate>
${csrfField(view)}
<input type="text" name="username" value="${word}" autocomplete="username" hidden>
${textField({ name: 'password', label: r.password, type: 'password', errors, autocomplete: 'current-password', required: true })}
${textField({ name: 'confirmation', label: r.confirmation(word), value: text(values, 'confirmation'), errors, autocomplete: 'off', required: true })}
<div class="actions"><button type="submit" class="danger">${r.submit}</button> <a href="/account">${view.t.common.cancel}</a></div>
</form>`;
}
