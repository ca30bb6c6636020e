// Headers are attacker-controlled and parsed on every redirect: past these bounds the rest is
// ignored rather than parsed, so a megabyte header costs no more than a normal one.
const MAX_CHARS = 1000;
const MAX_ENTRIES = 50;

const TAG = /^([A-Za-z]{2,8})(?:-[A-Za-z0-9]{1,8})*$/;
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * Primary language subtags of an Accept-Language header, lower case, best first:
 * by q-weight descending, then by position. q=0, `*`, duplicates and malformed parts are dropped.
 */
export function parseAcceptLanguage(header: string | undefined): string[] {
  if (header === undefined || header === '') return [];
  let text = header;
  const truncated = text.length > MAX_CHARS;
  if (truncated) text = text.slice(0, MAX_CHARS);
  const parts = text.split(',', MAX_ENTRIES + 1);
  // A cut header ends in a fragment ("de-C" of "de-CH;q=0.5") whose weight is unknown.
  if (truncated || parts.length > MAX_ENTRIES) parts.pop();

  const weighted: Array<{ lang: string; q: number; pos: number }> = [];
  parts.forEach((part, pos) => {
    const entry = parseEntry(part);
    if (entry !== null && entry.q > 0) weighted.push({ ...entry, pos });
  });
  weighted.sort((a, b) => b.q - a.q || a.pos - b.pos);

  const seen = new Set<string>();
  for (const { lang } of weighted) seen.add(lang);
  return [...seen];
}

function parseEntry(part: string): { lang: string; q: number } | null {
  const [rawTag, ...params] = part.split(';');
  const match = TAG.exec((rawTag ?? '').trim());
  if (match === null) return null;
  let q = 1;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq === -1) return null;
    if (param.slice(0, eq).trim().toLowerCase() !== 'q') continue;
    const value = param.slice(eq + 1).trim();
    if (!QVALUE.test(value)) return null;
    q = Number(value);
  }
  return { lang: (match[1] ?? '').toLowerCase(), q };
}
