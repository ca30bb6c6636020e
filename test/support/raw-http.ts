/**
 * A raw HTTP/1.1 client for tests of the fast lane: bytes are written exactly as given (heads
 * split across writes, pipelined, malformed), and the answers are read back one by one.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names in lower case; repeated ones joined with ", ". */
  headers: Record<string, string>;
  body: string;
  /** The response's bytes, as sent. */
  raw: string;
}

export interface RawConnection {
  socket: Socket;
  write(text: string): Promise<void>;
  /** The next `count` responses, in order (rejects after `timeoutMs`). */
  responses(count: number, timeoutMs?: number): Promise<RawResponse[]>;
  /** Resolves when the server has closed the connection. */
  closed: Promise<void>;
  close(): void;
}

export async function rawConnection(port: number, host = '127.0.0.1'): Promise<RawConnection> {
  const socket = connect(port, host);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let buffered = '';
  const parsed: RawResponse[] = [];
  let wake: (() => void) | null = null;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    for (let r = takeResponse(buffered); r !== null; r = takeResponse(buffered)) {
      parsed.push(r.response);
      buffered = buffered.slice(r.length);
    }
    wake?.();
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      resolve();
      wake?.();
    }),
  );
  return {
    socket,
    closed,
    write: (text) =>
      new Promise((resolve, reject) => socket.write(Buffer.from(text, 'latin1'), (e) => (e ? reject(e) : resolve()))),
    async responses(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (parsed.length < count) {
        if (socket.destroyed) throw new Error(`connection closed after ${parsed.length} of ${count} responses`);
        if (Date.now() > deadline)
          throw new Error(`only ${parsed.length} of ${count} responses within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 20);
        });
        wake = null;
      }
      return parsed.splice(0, count);
    },
    close: () => socket.destroy(),
  };
}

/** One whole response at the start of `text` (bodies by Content-Length only), or null. */
function takeResponse(text: string): { response: RawResponse; length: number } | null {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const lines = text.slice(0, end).split('\r\n');
  const status = Number(lines[0]!.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const size = Number(headers['content-length'] ?? 0);
  if (text.length < end + 4 + size) return null;
  const length = end + 4 + size;
  return { response: { status, headers, body: text.slice(end + 4, length), raw: text.slice(0, length) }, length };
}
