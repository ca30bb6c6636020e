import { randomBytes } from 'node:crypto';

/** Hosts, per fetch directive, that a page may use beyond its own inline nonce-tagged code. */
export interface CspSources {
  /** Present (even empty) = the page runs its own nonce-tagged scripts; absent = no script at all. */
  script?: readonly string[];
  img?: readonly string[];
  connect?: readonly string[];
  frame?: readonly string[];
}

// base64 or base64url, at least 16 characters (96 bits); anything else could break out of the
// header's quotes or the nonce attribute, or is too short to be unguessable.
const NONCE_PATTERN = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;

/** A fresh nonce for one response (128 random bits, base64). */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

export function assertNonce(nonce: string): void {
  if (!NONCE_PATTERN.test(nonce)) throw new Error('CSP nonce must be 16+ base64 characters');
}

function directive(name: string, sources: readonly string[]): string | null {
  const unique = [...new Set(sources)];
  return unique.length > 0 ? `${name} ${unique.join(' ')}` : null;
}

/**
 * The Content-Security-Policy of every visitor page: nothing by default, inline style and script
 * only with this response's nonce (never 'unsafe-inline' or 'unsafe-eval'), forms only to our
 * own origin, no <base>, no framing. `extra` adds vendor hosts for the pixel page.
 */
export function buildCsp(nonce: string, extra: CspSources = {}): string {
  assertNonce(nonce);
  const n = `'nonce-${nonce}'`;
  const parts = [
    "default-src 'none'",
    extra.script ? directive('script-src', [n, ...extra.script]) : null,
    `style-src ${n}`,
    directive('img-src', extra.img ?? []),
    directive('connect-src', extra.connect ?? []),
    directive('frame-src', extra.frame ?? []),
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  return parts.filter((p): p is string => p !== null).join('; ');
}
