import { STATUS_CODES } from 'node:http';
import { locationValue, pageHeaders, SERVER_ERROR_JSON, type Answer } from '../redirect/respond.ts';
import type { FailedVisit } from '../error-handler.ts';

const SERVER_ERROR: FailedVisit = { status: 500, headers: {}, body: SERVER_ERROR_JSON };

// A Location the redirect writes is already printable ASCII (respond.ts locationValue); checked
// again because here no node:http stands between a stored value and the response's framing.
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

/**
 * The bytes of an answer as node:http writes them for the same writeHead(): the status line,
 * the answer's own headers, then Date, Connection and Keep-Alive, the blank line and the body
 * (none for HEAD, Content-Length still given).
 */
export class RawAnswers {
  private second = -1;
  private date = '';
  private readonly keepAlive: string;

  constructor(keepAliveTimeoutMs: number) {
    this.keepAlive = 'Connection: keep-alive\r\n' + (keepAliveTimeoutMs >= 1000 ? `Keep-Alive: timeout=${Math.floor(keepAliveTimeoutMs / 1000)}\r\n` : '');
  }

  redirect(status: number, location: string, extra = '', cookies = ''): string {
    if (!HEADER_VALUE.test(location)) throw new Error('a Location outside printable ASCII reached the fast lane');
    return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${extra}location: ${location}\r\ncache-control: no-store\r\ncontent-length: 0\r\n${cookies}${this.trailer()}`;
  }

  answer(answer: Answer, head: boolean): Buffer | string {
    // In node:http's order for respond.ts writeAnswer: the other headers, the answer's own, its cookies.
    const extra = answer.headers === undefined ? '' : headerLines(Object.entries(answer.headers));
    const cookies = answer.cookies === undefined ? '' : headerLines(answer.cookies.map((c) => ['set-cookie', c]));
    if (answer.kind === 'redirect') return this.redirect(answer.status, locationValue(answer.location), extra, cookies);
    const body = Buffer.from(answer.page.html, 'utf8');
    const lines = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${extra}${headerLines(Object.entries(pageHeaders(answer.page)))}content-length: ${body.length}\r\n${cookies}${this.trailer()}`;
    return head ? lines : Buffer.concat([Buffer.from(lines, 'latin1'), body]);
  }

  serverError(head: boolean, failure: FailedVisit = SERVER_ERROR): string {
    let lines = `HTTP/1.1 ${failure.status} ${STATUS_CODES[failure.status]}\r\ncontent-type: application/json; charset=utf-8\r\n`;
    for (const [name, value] of Object.entries(failure.headers)) lines += `${name}: ${value}\r\n`;
    lines += `content-length: ${Buffer.byteLength(failure.body)}\r\n${this.trailer()}`;
    return head ? lines : lines + failure.body;
  }

  /** Date (remade once a second, as node:http does), Connection, Keep-Alive and the blank line. */
  private trailer(): string {
    const now = Date.now();
    const second = Math.floor(now / 1000);
    if (second !== this.second) {
      this.second = second;
      this.date = `Date: ${new Date(second * 1000).toUTCString()}\r\n${this.keepAlive}\r\n`;
    }
    return this.date;
  }
}

function headerLines(headers: Array<[string, string]>): string {
  let lines = '';
  for (const [name, value] of headers) {
    if (!HEADER_VALUE.test(value)) throw new Error(`a ${name} header outside printable ASCII reached the fast lane`);
    lines += `${name}: ${value}\r\n`;
  }
  return lines;
}
