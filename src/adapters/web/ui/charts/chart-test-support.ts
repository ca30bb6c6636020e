// Shared by the chart tests: the markup read back as a document, as a browser would.
import { DomUtils, parseDocument } from 'htmlparser2';

type Node = ReturnType<typeof parseDocument>;
type Element = ReturnType<typeof DomUtils.getElementsByTagName>[number];

export function all(root: Node | Element, tag: string): Element[] {
  return DomUtils.getElementsByTagName(tag, root, true);
}

export function parse(markup: string): Node {
  return parseDocument(markup);
}

export const text = (el: Element | undefined): string => (el ? DomUtils.textContent(el) : '');

/** The data table's body rows as [row header, value] text pairs. */
export function tableRows(markup: string): [string, string][] {
  return all(parse(markup), 'tbody')
    .flatMap((tbody) => all(tbody, 'tr'))
    .map((tr) => [text(all(tr, 'th')[0]), text(all(tr, 'td')[0])]);
}

/** The text of the first element of a tag. */
export function first(markup: string, tag: string): string {
  return text(all(parse(markup), tag)[0]);
}
