import { html, type RawHtml } from '../../../shared/html/html.ts';
import { safeNext } from '../../app/respond.ts';
import type { View } from '../../app/view.ts';
import type { SsoServices } from '../../app/web-context.ts';

/** The "Sign in with …" link on /login and /signup: a link, not a form (a form's redirect to another site is refused by form-action 'self'). */
export function ssoLink(view: View, sso: SsoServices | null | undefined, next: unknown): RawHtml {
  if (!sso) return html``;
  const s = view.t.auth.sso;
  return html`<p><a class="button secondary" href="/login/sso?next=${encodeURIComponent(safeNext(next))}">${s.signInWith(sso.name || s.defaultName)}</a></p>
<p>${s.or}</p>`;
}
