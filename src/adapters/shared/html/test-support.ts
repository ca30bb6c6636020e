// Shared by the page tests: what "no stored value could inject script" means in markup terms.
import assert from 'node:assert/strict';

export const NONCE = 'dGVzdC1ub25jZS0xMjM0NQ==';

export const HOSTILE = {
  title: '</title><script>alert(1)</script>',
  jsUrl: 'javascript:alert(1)',
  breakoutUrl: 'https://x.test/"><script>alert(1)</script>',
  quotes: `it's a "quote" \`tick\``,
} as const;

/** Fails if the markup contains anything that would run without our nonce. */
export function assertNoInjection(markup: string, nonce: string = NONCE): void {
  assert.ok(!markup.includes('<script>alert(1)'), 'hostile <script> reached the markup');
  assert.ok(!/<\/title><script/i.test(markup), 'a title broke out of <title>');
  assert.doesNotMatch(markup, /<script(?![^>]*\snonce="[^"]*")/i, 'a <script> without nonce');
  assert.doesNotMatch(markup, /<style(?![^>]*\snonce="[^"]*")/i, 'a <style> without nonce');
  for (const m of markup.matchAll(/\snonce="([^"]*)"/g)) assert.equal(m[1], nonce);
  assert.doesNotMatch(markup, /<[a-z][^>]*\son[a-z]+\s*=/i, 'an inline event handler attribute');
  assert.doesNotMatch(
    markup,
    /\s(?:href|src|action)\s*=\s*["']?\s*(?:javascript|data|vbscript):/i,
    'a script URL in an attribute',
  );
  assert.doesNotMatch(markup, /\sstyle\s*=/i, 'a style attribute (refused by the CSP)');
}

/** Checks shared by every page's Content-Security-Policy. */
export function assertStrictCsp(csp: string, nonce: string = NONCE): void {
  assert.ok(csp.includes(`'nonce-${nonce}'`), 'CSP lacks the nonce');
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|unsafe-hashes|strict-dynamic/);
  for (const d of ["default-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'"]) {
    assert.ok(csp.split('; ').includes(d), `CSP lacks ${d}`);
  }
  assert.doesNotMatch(csp, /(^|\s)\*(\s|;|$)|https?:(\s|;|$)|data:/, 'CSP allows any host or scheme');
}

/** The body of every inline script, in order. */
export function inlineScripts(markup: string): string[] {
  return [...markup.matchAll(/<script nonce="[^"]*">([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
}
