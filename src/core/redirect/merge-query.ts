/**
 * Carries the visit's query parameters over to the destination (utm tags and the like),
 * keeping the destination's own parameters, port and fragment. Parameters the destination
 * already has are kept as the link's owner set them.
 */
export function mergeQuery(destination: string, incomingQuery: string): string {
  if (incomingQuery === '') return destination;
  let url: URL;
  try {
    url = new URL(destination);
  } catch {
    return destination;
  }
  const incoming = new URLSearchParams(incomingQuery);
  for (const [key, value] of incoming) {
    if (!url.searchParams.has(key)) url.searchParams.append(key, value);
  }
  return url.toString();
}
