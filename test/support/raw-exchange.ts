/**
 * One connection's whole exchange, for tests of HTTP framing: bytes written exactly as given
 * (at once, or so many bytes a write), everything the server sends read until it closes, and
 * how it closed: its FIN ('end'), a reset ('reset'), or still open when the test stopped
 * waiting ('open').
 */
import { connect } from 'node:net';

export interface Exchange {
  /** Every byte the server sent, latin1. */
  received: string;
  closed: 'end' | 'reset' | 'open';
  /** Bytes written before the exchange ended (all of them, unless the server closed first). */
  written: number;
  /** The error code of a write the server did not read (EPIPE, ECONNRESET), if any. */
  writeError: string | undefined;
  /** Milliseconds from connecting to the close (or to giving up). */
  ms: number;
  /** This side's port: the server's `req.socket.remotePort`, to tell its connections apart. */
  localPort: number | undefined;
}

export interface ExchangeOptions {
  /** Bytes a write (default: all at once). */
  perWrite?: number;
  /** Only the first this many bytes go perWrite at a time; the rest in one write (default: all of them). */
  splitUpTo?: number;
  /** Stop waiting for the server's close after this long (default 3 s). */
  waitMs?: number;
  /** Pause between writes (default none). */
  delayMs?: number;
  /** Stop writing once the server has closed its side (a client that reads its answer). */
  stopOnEnd?: boolean;
}

export function exchange(port: number, bytes: Buffer | string, options: ExchangeOptions = {}): Promise<Exchange> {
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
  const { perWrite = data.length, splitUpTo = data.length, waitMs = 3000, stopOnEnd = false, delayMs = 0 } = options;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const started = Date.now();
    const chunks: Buffer[] = [];
    let writeError: string | undefined;
    let written = 0;
    let ended = false;
    let writing = true;
    let settled = false;
    let localPort: number | undefined;
    const settle = (closed: Exchange['closed']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({
        received: Buffer.concat(chunks).toString('latin1'),
        closed,
        written,
        writeError,
        ms: Date.now() - started,
        localPort,
      });
    };
    const timer = setTimeout(() => settle('open'), waitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server's FIN ends the exchange once this side has written all it would (or failed to):
    // a FIN while the client is still sending leaves the rest to fail.
    socket.on('end', () => {
      ended = true;
      if (!writing) settle('end');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A failed write is remembered; the read side may still hold the answer and the FIN.
      if (!ended && error.code === 'ECONNRESET') settle('reset');
      else writeError ??= error.code;
    });
    // Closed without the server's FIN having been read: a reset, or a write's error, ended it.
    socket.on('close', () => settle('reset'));
    // Nothing in the writes rejects (each resolves with ok or not), so no promise is dropped unhandled.
    socket.once(
      'connect',
      () =>
        void (async () => {
          localPort = socket.localPort;
          for (let at = 0, size = perWrite; at < data.length && !settled && !(stopOnEnd && ended); at += size) {
            size = at < splitUpTo ? Math.min(perWrite, splitUpTo - at) : data.length - at;
            const ok = await new Promise<boolean>((done) => {
              socket.write(data.subarray(at, at + size), (error) => {
                if (error) writeError ??= (error as NodeJS.ErrnoException).code;
                done(!error);
              });
            });
            if (!ok) break;
            written += size;
            if (delayMs > 0) await new Promise((done) => setTimeout(done, delayMs));
          }
          writing = false;
          if (ended) settle('end');
        })(),
    );
  });
}
