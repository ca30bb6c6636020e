/**
 * Request shapes phpShort clients send that mean the same thing, folded into one before
 * validation: later names (domain_id…), blank form fields as "clear", absent bodies as empty.
 */
const BODY_ALIASES: Record<string, string> = { domain_id: 'domain', space_id: 'space', pixel_ids: 'pixels' };
const QUERY_ALIASES: Record<string, string> = {
  search_by: 'by',
  domain_id: 'domain',
  space_id: 'space',
  pixel_id: 'pixel',
};

export function normalizeBody(body: unknown): unknown {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) return body; // the schema will refuse it by name
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const name = BODY_ALIASES[key] ?? key;
    if (name !== key && name in body) continue;
    out[name] = isBlank(value) ? null : value;
  }
  return out;
}

/** '' or a list of only '' (`pixels[]=`): a form's way to say "clear this". */
function isBlank(value: unknown): boolean {
  return value === '' || (Array.isArray(value) && value.length > 0 && value.every((v) => v === ''));
}

/** Blank query parameters are treated as not sent. */
export function normalizeQuery(query: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!query || typeof query !== 'object') return out;
  for (const [key, value] of Object.entries(query)) {
    if (value === '' || value === undefined) continue;
    const name = QUERY_ALIASES[key] ?? key;
    if (name !== key && name in (query as Record<string, unknown>)) continue;
    out[name] = value;
  }
  return out;
}
