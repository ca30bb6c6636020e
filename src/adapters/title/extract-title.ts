const MAX_TITLE_LENGTH = 255;

// <title> is raw text in HTML, so the first closing tag ends it no matter
// what it looks like inside; a non-greedy match mirrors that.
const TITLE = /<title(?:\s[^>]*)?>([\s\S]*?)<\/title\s*>/i;

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]+));/g;

/**
 * Returns the text of the document's first <title>, cleaned up for display,
 * or null when there is none or it is blank.
 */
export function extractTitle(html: string): string | null {
  const match = TITLE.exec(html);
  if (!match) return null;
  const text = decodeEntities(match[1] ?? '')
    // Control characters would survive into storage and UIs invisibly.
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return null;
  // Count code points, not UTF-16 units, so an emoji is never cut in half.
  const chars = Array.from(text);
  return chars.length <= MAX_TITLE_LENGTH ? text : chars.slice(0, MAX_TITLE_LENGTH).join('').trimEnd();
}

// One pass over the string, so "&amp;lt;" correctly becomes "&lt;", not "<".
function decodeEntities(text: string): string {
  return text.replace(ENTITY, (whole, decimal?: string, hex?: string, name?: string) => {
    if (name !== undefined) return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const codePoint = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex ?? '', 16);
    return isScalarValue(codePoint) && codePoint !== 0 ? String.fromCodePoint(codePoint) : '\uFFFD';
  });
}

function isScalarValue(codePoint: number): boolean {
  return codePoint <= 0x10ffff && (codePoint < 0xd800 || codePoint > 0xdfff);
}
