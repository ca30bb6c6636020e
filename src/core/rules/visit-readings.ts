import { parseAddress, type Address } from './ip-range.ts';

/**
 * What several conditions read from one visit, read once: every compiled rule of every link
 * shares these, so a visit that passes twenty rules parses its query and its address once,
 * not once a condition (the redirect is one thread: the last visit's reading is the current one).
 */
let lastQuery = '';
let lastParams: URLSearchParams | null = null;

/** The visit's query parameters; null for an empty query (no parameter is present). */
export function paramsOf(query: string): URLSearchParams | null {
  if (query === '') return null;
  if (lastParams === null || query !== lastQuery) {
    lastParams = new URLSearchParams(query);
    lastQuery = query;
  }
  return lastParams;
}

let lastAddressText: string | null = null;
let lastAddress: Address | null = null;

/** The client address as bytes, or null when there is none or it does not parse. */
export function addressOf(text: string): Address | null {
  if (text === '') return null;
  if (text !== lastAddressText) {
    lastAddress = parseAddress(text);
    lastAddressText = text;
  }
  return lastAddress;
}
