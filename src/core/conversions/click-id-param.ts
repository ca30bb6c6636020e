/** The destination parameter that carries a click id to the owner's site. */
export const CLICK_ID_PARAM = 'lpx_cid';

/**
 * The visit's query with our click id in place of any the visitor sent; mergeQuery then keeps
 * a `lpx_cid` the destination itself has (the owner's parameters win).
 */
export function withClickId(query: string, clickId: string): string {
  const own = `${CLICK_ID_PARAM}=${clickId}`;
  if (query === '') return own;
  const kept = query
    .split('&')
    .filter((pair) => pair !== '' && pair !== CLICK_ID_PARAM && !pair.startsWith(`${CLICK_ID_PARAM}=`));
  return kept.length === 0 ? own : `${kept.join('&')}&${own}`;
}
