import { UTM_PARAMS, emptyUtm, isUtmParam, type UtmParams } from './utm-params.ts';

/**
 * The destination cut where its query starts and ends. Text, not the URL parser: the parser
 * would rewrite the rest of the address (case, encoding, a trailing slash), and the owner's
 * destination stays exactly as they wrote it apart from the five parameters.
 */
function partsOf(url: string): { head: string; pairs: string[]; fragment: string } {
  const hash = url.indexOf('#');
  const beforeFragment = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : url.slice(hash);
  const question = beforeFragment.indexOf('?');
  if (question === -1) return { head: beforeFragment, pairs: [], fragment };
  const query = beforeFragment.slice(question + 1);
  return { head: beforeFragment.slice(0, question), pairs: query === '' ? [] : query.split('&'), fragment };
}

/** A query component as a form would decode it; a malformed escape is kept as written. */
function decode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

function nameOf(pair: string): string {
  const eq = pair.indexOf('=');
  return decode(eq === -1 ? pair : pair.slice(0, eq));
}

function valueOf(pair: string): string {
  const eq = pair.indexOf('=');
  return eq === -1 ? '' : decode(pair.slice(eq + 1));
}

/** The five parameters as the destination has them (the first of a repeated one); '' when absent. */
export function readUtm(url: string): UtmParams {
  const found = emptyUtm();
  const seen = new Set<string>();
  for (const pair of partsOf(url).pairs) {
    const name = nameOf(pair);
    if (isUtmParam(name) && !seen.has(name)) {
      seen.add(name);
      found[name] = valueOf(pair);
    }
  }
  return found;
}

/**
 * The destination with the five parameters set to `params`: a parameter it has keeps its place
 * (and its spelling, when its value is unchanged), a new one is added after the others, an empty
 * one is taken out. Other parameters and the fragment stay as written. A blank destination stays
 * blank: there is nothing to add parameters to.
 */
export function composeUtm(url: string, params: UtmParams): string {
  if (url.trim() === '') return url;
  const { head, pairs, fragment } = partsOf(url);
  const placed = new Set<string>();
  const kept: string[] = [];
  for (const pair of pairs) {
    const name = nameOf(pair);
    if (!isUtmParam(name)) {
      kept.push(pair);
      continue;
    }
    if (placed.has(name) || params[name] === '') continue;
    placed.add(name);
    kept.push(valueOf(pair) === params[name] ? pair : `${name}=${encodeURIComponent(params[name])}`);
  }
  for (const name of UTM_PARAMS) {
    if (!placed.has(name) && params[name] !== '') kept.push(`${name}=${encodeURIComponent(params[name])}`);
  }
  const unchanged = kept.length === pairs.length && kept.every((pair, i) => pair === pairs[i]);
  if (unchanged) return url;
  return `${head}${kept.length > 0 ? `?${kept.join('&')}` : ''}${fragment}`;
}
