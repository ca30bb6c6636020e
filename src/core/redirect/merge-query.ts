/**
 * Carries the visit's query parameters over to the destination (utm tags and the like),
 * keeping the destination's own parameters, port and fragment. Parameters the destination
 * already has are kept as the link's owner set them. Both queries are kept as written (not
 * re-encoded): `%20` stays `%20` and a bare `flag` stays bare, since servers read them apart.
 */
export function mergeQuery(destination: string, incomingQuery: string): string {
  if (incomingQuery === '') return destination;
  return mergesWithoutParsing(destination, incomingQuery)
    ? appendQuery(destination, incomingQuery)
    : mergeByUrl(destination, incomingQuery);
}

/** Whether the merge is the common case below, where parsing would change nothing. */
export function mergesWithoutParsing(destination: string, incomingQuery: string): boolean {
  return PLAIN_DESTINATION.test(destination) && PLAIN_QUERY.test(incomingQuery);
}

/** The general case, through the WHATWG URL parser. */
export function mergeByUrl(destination: string, incomingQuery: string): string {
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

// The common case, without parsing, since a URL object and its serialisation are a visible
// share of a visit's work (docs/performance.md): a destination that the URL parser would give back unchanged and that has no
// query or fragment of its own, and a query with no character the parser would encode. Then
// every non-empty pair is added as written, which is what mergeByUrl does with it
// (merge-query.test.ts checks the two agree).
//
// The destination: http(s), lower-case host names whose last label starts with a letter (no
// address, no punycode to validate), no port or user, a path of characters left as they are,
// with no dot segment (which the parser would resolve) and no backslash.
const PLAIN_DESTINATION =
  /^https?:\/\/(?!xn--)[a-z0-9-]+(?:\.(?!xn--)[a-z0-9-]+)*(?<=[./][a-z][a-z0-9-]*)\/(?!\.|%2[eE])(?:[A-Za-z0-9\-_~!$&'()*+,;=:@%.]|\/(?!\.|%2[eE]))*$/;
// No "?" either: the parser drops one that would lead the query.
const PLAIN_QUERY = /^[A-Za-z0-9\-._~!$&()*+,;=:@/%]*$/;

function appendQuery(destination: string, incomingQuery: string): string {
  let pairs = '';
  let from = 0;
  while (from <= incomingQuery.length) {
    let to = incomingQuery.indexOf('&', from);
    if (to === -1) to = incomingQuery.length;
    if (to > from) pairs += (pairs === '' ? '' : '&') + incomingQuery.slice(from, to);
    from = to + 1;
  }
  return pairs === '' ? destination : `${destination}?${pairs}`;
}
