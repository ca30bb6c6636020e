import type { HealthReason } from '../../core/health/health.ts';

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'ENODATA']);
const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
  'ABORT_ERR',
]);
const TLS_CODES = new Set([
  'EPROTO',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const { code, name, cause } = e as { code?: unknown; name?: unknown; cause?: unknown };
    if (typeof code === 'string') codes.push(code);
    if (name === 'AbortError' || name === 'TimeoutError') codes.push('ABORT_ERR');
    e = cause;
  }
  return codes;
}

/**
 * Why a request got no answer, from the error undici or Node gave (the codes of the error and its
 * causes). Anything not known as DNS, timeout or TLS is a connection failure: refused, reset,
 * dropped, or an address the outbound policy refuses.
 */
export function failureReason(error: unknown): Exclude<HealthReason, 'status' | 'redirects'> {
  const codes = codesOf(error);
  if (codes.some((c) => DNS_CODES.has(c))) return 'dns';
  if (codes.some((c) => TIMEOUT_CODES.has(c))) return 'timeout';
  if (codes.some((c) => TLS_CODES.has(c) || c.startsWith('ERR_TLS_') || c.startsWith('ERR_SSL_'))) return 'tls';
  return 'connect';
}
