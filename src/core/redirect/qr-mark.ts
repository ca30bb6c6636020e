/**
 * A QR code's short URL carries `qr=1` (docs/design/qr.md): the visit is counted as a scan and the
 * mark is taken out of the query before it is merged into the destination, so no destination
 * ever sees it. Only the exact pair counts; `qr=0` or `qr=yes` are the visitor's own and pass on.
 */
const QR_MARK = 'qr=1';

/** Whether the query (without its "?") holds the mark. */
export function hasQrMark(query: string): boolean {
  if (query.indexOf(QR_MARK) === -1) return false;
  return query.split('&').includes(QR_MARK);
}

/** The query without any `qr=1` pair, the other pairs as written. */
export function withoutQrMark(query: string): string {
  return query
    .split('&')
    .filter((pair) => pair !== QR_MARK)
    .join('&');
}

/** What a QR code of a short URL encodes: the URL with the mark, so that its scans count as such. */
export function withQrMark(shortUrl: string): string {
  return `${shortUrl}${shortUrl.includes('?') ? '&' : '?'}${QR_MARK}`;
}
