import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { Session } from '../../../../core/accounts/account.ts';
import type { TwoFactorStatus } from '../../../../core/security/two-factor-service.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { copyButton, csrfField, errorSummary, fieldId, postButton, textField } from '../../ui/components.ts';
import type { View } from '../../app/view.ts';
import { sessionsSection } from '../account/account-views.ts';
import type { LinkedIdentity } from '../../../../core/sso/sso-identity-store.ts';

/** Which form of the page failed, so only it shows its errors. */
export type SecurityFormState = { form: 'confirm' | 'disable' | 'regenerate' | 'sso'; errors: FieldErrors } | null;

/** What the page shows: the status, the QR code's image while enrolling, the sessions. */
export interface SecurityPageData {
  status: TwoFactorStatus;
  qr: string | null;
  sessions: readonly Session[];
  currentSessionId: number;
  /** Single sign-on when it is set up: the provider's name and the person's linked identities. */
  sso: { name: string; identities: readonly LinkedIdentity[] } | null;
}

/** Linked identities, each with its unlink form, and the link that starts connecting one. */
function ssoSection(view: View, sso: NonNullable<SecurityPageData['sso']>, state: SecurityFormState): RawHtml {
  const t = view.t.security.sso;
  const errors = state?.form === 'sso' ? state.errors : undefined;
  const rows = sso.identities.map(
    (i) => html`<tr><td class="mono">${i.subject}</td><td class="date">${view.fmt.dateTime(i.createdAt)}</td>
<td>${postButton(view, '/account/security/sso/unlink', t.unlink, { hidden: { issuer: i.issuer, subject: i.subject }, danger: true, accessibleName: t.unlinkNamed(sso.name) })}</td></tr>`,
  );
  return html`<section class="settings-section" aria-labelledby="sso-title">
<h2 id="sso-title">${t.title}</h2>
<p>${t.intro(sso.name)}</p>
${errorSummary(view, errors)}
${
  rows.length === 0
    ? html`<p class="muted">${t.none}</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="${t.caption}"><table><caption class="visually-hidden">${t.caption}</caption>
<thead><tr><th scope="col">${t.subject}</th><th scope="col">${t.since}</th><th scope="col">${view.t.common.actions}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}
${errors?.sso ? html`<p class="field-error" id="${fieldId('sso')}" tabindex="-1">${errors.sso.join(' ')}</p>` : ''}
<p><a class="button secondary" href="/account/security/sso/connect">${t.connect(sso.name)}</a></p>
</section>`;
}

function offSection(view: View): RawHtml {
  const t = view.t.security.twoFactor;
  return html`<p>${t.offIntro}</p>
<div class="actions">${postButton(view, '/account/security/two-factor/start', t.start)}</div>`;
}

/** The QR code and the key as text (a phone's camera is not always at hand), then the first code. */
function enrollingSection(view: View, secret: string, qr: string | null, state: SecurityFormState): RawHtml {
  const t = view.t.security.twoFactor;
  const errors = state?.form === 'confirm' ? state.errors : undefined;
  return html`<h3 id="setup-title">${t.setupTitle}</h3>
<p>${t.scan}</p>
${qr ? html`<p><img class="enrol-qr" src="${qr}" alt="${t.qrAlt}" width="200" height="200"></p>` : ''}
<div class="field">
<label for="totp-secret">${t.typeInstead}</label>
<input id="totp-secret" class="mono" type="text" value="${secret.replace(/(.{4})(?=.)/g, '$1 ')}" readonly autocomplete="off" spellcheck="false">
</div>
<div class="actions">${copyButton(view, secret, t.secretLabel)}</div>
${errorSummary(view, errors)}
<form method="post" action="/account/security/two-factor/confirm" class="stack" novalidate>
${csrfField(view)}
${textField({ name: 'code', label: t.code, hint: t.codeHint, errors, autocomplete: 'one-time-code', inputmode: 'numeric', required: true, maxlength: 64 })}
<div class="actions"><button type="submit">${t.confirm}</button></div>
</form>
<div class="actions">${postButton(view, '/account/security/two-factor/cancel', t.cancel, { secondary: true })}</div>`;
}

function onSection(view: View, since: number, left: number, state: SecurityFormState): RawHtml {
  const t = view.t.security.twoFactor;
  const r = view.t.security.recovery;
  const regenerateErrors = state?.form === 'regenerate' ? state.errors : undefined;
  const disableErrors = state?.form === 'disable' ? state.errors : undefined;
  return html`<p><strong>${t.on(view.fmt.dateTime(since))}</strong> ${t.recoveryLeft(left)}</p>
<section aria-labelledby="regenerate-title">
<h3 id="regenerate-title">${r.regenerateTitle}</h3>
<p>${r.regenerateIntro}</p>
${errorSummary(view, regenerateErrors, { code: 'regenerate_code' })}
<form method="post" action="/account/security/recovery-codes" class="stack" novalidate>
${csrfField(view)}
${textField({ name: 'code', id: fieldId('regenerate_code'), label: t.anyCode, errors: regenerateErrors, autocomplete: 'one-time-code', required: true, maxlength: 64 })}
<div class="actions"><button type="submit">${r.regenerate}</button></div>
</form>
</section>
<section aria-labelledby="disable-title">
<h3 id="disable-title">${t.disableTitle}</h3>
<p>${t.disableIntro}</p>
${errorSummary(view, disableErrors)}
<form method="post" action="/account/security/two-factor/disable" class="stack" novalidate>
${csrfField(view)}
<input type="text" name="username" value="${view.account!.email}" autocomplete="username" hidden>
${textField({ name: 'password', label: t.password, type: 'password', errors: disableErrors, autocomplete: 'current-password', required: true })}
${textField({ name: 'code', label: t.anyCode, errors: disableErrors, autocomplete: 'one-time-code', required: true, maxlength: 64 })}
<div class="actions"><button type="submit" class="danger">${t.disable}</button></div>
</form>
</section>`;
}

export function securityPage(view: View, data: SecurityPageData, state: SecurityFormState): RawHtml {
  const s = view.t.security;
  const status = data.status;
  const body =
    status.state === 'off'
      ? offSection(view)
      : status.state === 'enrolling'
        ? enrollingSection(view, status.secret, data.qr, state)
        : onSection(view, status.since, status.recoveryCodesLeft, state);
  return html`<h1>${s.title}</h1>
<p><a href="/account">${view.t.account.keys.back}</a></p>
<section class="settings-section" aria-labelledby="two-factor-title">
<h2 id="two-factor-title">${s.twoFactor.title}</h2>
${body}
</section>
${data.sso ? ssoSection(view, data.sso, state) : ''}
${sessionsSection(view, data.sessions, data.currentSessionId)}`;
}

/** Shown once, in the answer to the form that made them (never in a cookie or a URL). */
export function recoveryCodesPage(view: View, codes: readonly string[]): RawHtml {
  const r = view.t.security.recovery;
  return html`<h1>${r.madeTitle}</h1>
<p>${r.intro}</p>
<p id="codes-warning"><strong>${r.warning}</strong></p>
<ol class="recovery-codes mono" aria-label="${r.listLabel}" aria-describedby="codes-warning">${codes.map((code) => html`<li>${code}</li>`)}</ol>
<div class="actions">${copyButton(view, codes.join('\n'), r.listLabel)} <a href="/account/security">${r.done}</a></div>`;
}
