import { buildCsp } from './csp.ts';
import { html } from '../../shared/html/html.ts';
import { layout, type Page } from './layout.ts';

/** The shape shared by the pages that only explain why a link leads nowhere. */
export function messagePage(nonce: string, heading: string, lines: readonly string[]): Page {
  const main = html`<h1>${heading}</h1>
${lines.map((line) => html`<p>${line}</p>`)}`;
  return { html: layout({ title: heading, nonce, main }), csp: buildCsp(nonce) };
}
