/**
 * Carries the visit's query parameters over to the destination (utm tags and the like),
 * keeping the destination's own parameters, port and fragment. Parameters the destination
 * already has are kept as the link's owner set them. Both queries are kept as written (not
 * re-encoded): `%20` stays `%20` and a bare `flag` stays bare, since servers read them apart.
 */
export function mergeQuery(destination: string, incomingQuery: string): string {
  if (incomingQuery === '') return destination;
  let url: URL;
  try {
    url = new URL(destination);
  } catch {
    return destination;
  }
  const own = new URLSearchParams(url.search);
  const added = incomingQuery.split('&').filter((pair) => {
    if (pair === '') return false;
    const name = new URLSearchParams(pair).keys().next().value;
    return name !== undefined && !own.has(name);
  });
  if (added.length === 0) return url.toString();
  url.search = (url.search.length > 1 ? `${url.search.slice(1)}&` : '') + added.join('&');
  return url.toString();
}
