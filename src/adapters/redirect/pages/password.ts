import { buildCsp } from './csp.ts';
import { html } from '../../shared/html/html.ts';
import { layout, type Page } from './layout.ts';

/** What the visitor sees above the form: first visit, a wrong answer, or too many attempts. */
export type PasswordState = { kind: 'ask' } | { kind: 'wrong' } | { kind: 'rate-limited'; retryAfterSeconds: number };

export interface PasswordPageInput {
  nonce: string;
  /** Linked in the footer (the layout's privacyUrl). */
  privacyUrl?: string;
  state?: PasswordState;
}

function seconds(n: number): string {
  const whole = Number.isFinite(n) ? Math.max(1, Math.ceil(n)) : 1;
  return whole === 1 ? '1 second' : `${whole} seconds`;
}

function problem(state: PasswordState): string | null {
  if (state.kind === 'wrong') return 'Wrong password. Please try again.';
  if (state.kind === 'rate-limited') return `Too many attempts, try again in ${seconds(state.retryAfterSeconds)}.`;
  return null;
}

/**
 * The unlock form of a password-protected link. It posts to the same URL (`action=""`), so the
 * alias, domain and query string are kept without being written into the page. No CSRF token: a
 * forged submission could only unlock the link for the forger's own browser.
 */
export function renderPassword(input: PasswordPageInput): Page {
  const state = input.state ?? { kind: 'ask' };
  const message = problem(state);
  const main = html`<h1>This link is protected</h1>
<p>Enter the password you were given to continue to its destination.</p>
${message !== null && html`<p class="error" id="password-error" role="alert">${message}</p>`}
<form method="post" action="">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required autofocus${
    message !== null && html` aria-invalid="true" aria-describedby="password-error"`
  }>
<div class="actions"><button type="submit">Continue</button></div>
</form>`;
  return {
    html: layout({ title: 'Password required', nonce: input.nonce, main, privacyUrl: input.privacyUrl }),
    csp: buildCsp(input.nonce),
  };
}
