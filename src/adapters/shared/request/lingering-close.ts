import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { errorEnvelope } from '../errors/error-handler.ts';

/**
 * A lingering close (nginx's `lingering_close`, docs/design/visit.md): a connection answered without
 * its request's body having been read — a body over the limit, a request refused before its
 * body is parsed, a malformed head, a request too slow — is closed only after it has read on,
 * discarding, for a while. Closed at once, the kernel answers the bytes still coming with a
 * reset, and a client still sending its body then sees the reset instead of its answer.
 *
 * Only public APIs: Fastify's onSend hook (the answer becomes a stream that ends once the
 * request's body has been drained, so node:http, which closes the connection when a
 * `Connection: close` answer finishes, closes it only then) and Fastify's clientErrorHandler
 * (node:http's parser errors and timeouts: the answer, `socket.end()`, then reading on).
 */
export interface LingerLimits {
  /** How long at most a connection reads on after its answer. */
  ms: number;
  /** How many more bytes at most it reads. */
  bytes: number;
}

/** How long a connection reads on after its answer: enough for a client on a slow link to read it. */
export const LINGER_MS = 2000;

/** Bodies past BODY_LIMIT_BYTES's maximum fit. */
const LINGER: LingerLimits = { ms: LINGER_MS, bytes: 16 * 1024 * 1024 };

/** The request has a body (node:http refuses Content-Length beside Transfer-Encoding). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Connections whose last answer is written: what else they send is read only to be discarded. */
const answered = new WeakMap<Socket, number>();

/**
 * Every answer to a request whose body the app has not read (a body over the limit, a
 * refusal before the body is parsed, a route that reads none) closes the connection
 * (`Connection: close`, as Fastify already says for a body over the limit) and goes out at
 * once; the response ends, and node:http closes, once the body has been drained or the limits
 * are reached. Whether the body has arrived yet plays no part: the answer does not depend on
 * how the bytes were split.
 */
export function lingerAfterEarlyAnswers(app: FastifyInstance, limits: LingerLimits = LINGER): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const req = request.raw;
    if (req.readableEnded || !hasBody(req)) {
      done(null, payload);
      return;
    }
    reply.header('connection', 'close');
    answered.set(req.socket, req.socket.bytesRead);
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload) && payload !== null && payload !== undefined) {
      // A stream of the app's own (none on a request with a body): drained as it goes.
      drain(req, limits, () => {});
      done(null, payload);
      return;
    }
    const bytes = payload === null || payload === undefined ? Buffer.alloc(0) : Buffer.from(payload);
    reply.header('content-length', String(bytes.length));
    const body = new Readable({ read() {} });
    if (bytes.length > 0 && req.method !== 'HEAD') body.push(bytes);
    drain(req, limits, () => body.push(null));
    done(null, body);
  });
}

/** Reads the request's body to nothing until it ends or a limit is reached, then calls `then` once. */
function drain(req: IncomingMessage, limits: LingerLimits, then: () => void): void {
  let seen = 0;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    req.removeListener('data', onData);
    req.removeListener('end', stop);
    req.removeListener('close', stop);
    then();
  };
  const onData = (chunk: Buffer | string) => {
    seen += chunk.length;
    if (seen >= limits.bytes) stop();
  };
  const timer = setTimeout(stop, limits.ms);
  req.on('data', onData);
  req.once('end', stop);
  req.once('close', stop);
  req.resume();
}

interface ClientError extends Error {
  code?: string;
}

/**
 * Fastify's clientErrorHandler: node:http could not read a request (malformed, head too large)
 * or it took too long (requestTimeout, headersTimeout). Answered as Fastify would, in the
 * API's envelope, then closed lingering: node:http's parser, in error, reads on and reports
 * each further read here.
 */
export function answerClientErrors(limits: LingerLimits = LINGER) {
  return function onClientError(error: ClientError, socket: Socket): void {
    // Bytes after a request that asked to close the connection (llhttp reads no further): that
    // request is being answered, and its answer closes the connection; these are not read.
    if (error.code === 'ECONNRESET' || error.code === 'HPE_CLOSED_CONNECTION' || socket.destroyed) return;
    const since = answered.get(socket);
    if (since !== undefined) {
      // Already answered: a timeout ends the linger, more bytes count against it.
      if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || socket.bytesRead - since >= limits.bytes) socket.destroy();
      return;
    }
    answered.set(socket, socket.bytesRead);
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = JSON.stringify(errorEnvelope(status));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
    const timer = setTimeout(() => socket.destroy(), limits.ms);
    socket.once('close', () => clearTimeout(timer));
    socket.once('end', () => socket.destroy());
    socket.resume();
  };
}
