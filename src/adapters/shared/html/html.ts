/**
 * A fragment of HTML that is trusted as-is. Only `raw()` and the `html` tag make one, so every
 * other value that reaches a page goes through `escapeHtml` on the way in.
 */
export class RawHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = string | number | RawHtml | null | undefined | false | readonly HtmlValue[];

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

const ESCAPED = /[&<>"'`]/;

/** Escapes for HTML text and quoted attribute values alike, so a caller never picks the wrong one. */
export function escapeHtml(value: string): string {
  // Most values have nothing to escape: a test is cheaper than a replace that changes nothing.
  return ESCAPED.test(value) ? value.replace(/[&<>"'`]/g, (c) => HTML_ESCAPES[c] ?? c) : value;
}

/** Marks a fragment as trusted markup: it is inserted without escaping. */
export function raw(fragment: string): RawHtml {
  return new RawHtml(fragment);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof RawHtml) return value.value;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  return escapeHtml(String(value));
}

/** Tagged template: the literal parts are markup, every interpolation is escaped unless `raw()`. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): RawHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new RawHtml(out);
}

const JS_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * A JavaScript string literal (JSON) for use inside an inline <script>. `<` and `>` are escaped
 * so neither `</script>` nor `<!--` can appear and change how the HTML parser reads the
 * element; U+2028/2029 because older engines end a string literal there.
 */
export function jsString(value: string): string {
  return JSON.stringify(String(value)).replace(/[<>&\u2028\u2029]/g, (c) => JS_ESCAPES[c] ?? c);
}

/** The URL, normalised, when it is absolute http(s); otherwise null. */
export function httpUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
}

/**
 * For href/src/refresh targets: only http(s) URLs pass (normalised by the URL parser, which is
 * the one browsers use), anything else — javascript:, data:, relative — becomes '#'. The result
 * still needs HTML escaping, which the `html` tag does.
 */
export function urlAttr(url: string): string {
  return httpUrl(url) ?? '#';
}

/**
 * An inline script carrying the response's nonce. The body is code we wrote with values placed
 * through `jsString`; the check below is a last line of defence should that ever not hold.
 */
export function inlineScript(nonce: string, body: string): RawHtml {
  if (/<\/script|<!--/i.test(body)) throw new Error('inline script body would break out of its element');
  return html`<script nonce="${nonce}">${raw(body)}</script>`;
}
