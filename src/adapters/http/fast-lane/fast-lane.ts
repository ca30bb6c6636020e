import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastVisit, VisitHead } from '../redirect/fast-redirect.ts';
import type { Answer } from '../redirect/respond.ts';
import { failedVisit } from '../error-handler.ts';
import { RawAnswers } from './raw-answer.ts';
import { INCOMPLETE, readRequestHead } from './request-head.ts';

export interface FastLaneOptions {
  /** The redirect's fast path: an answer, or null for a request that is Fastify's. */
  visit: FastVisit;
  /** node:http's keepAliveTimeout: how long an idle connection is kept. */
  keepAliveTimeoutMs: number;
  onError(error: unknown): void;
}

/**
 * The redirect's fast lane (docs/adr/0013-fast-lane.md): every new connection is read here
 * first, and the plainest visits (request-head.ts) are answered on the socket, without
 * node:http's request and response objects, which cost a visit more than linkpix's own work.
 * At the first request the lane does not take, the connection is handed to node:http with the
 * unread bytes put back, and stays there: Fastify then serves it as any other.
 */
export class FastLane {
  readonly answers: RawAnswers;
  private readonly connections = new Set<LaneConnection>();
  private nodeHttp: ((socket: Socket) => void) | null = null;
  private closing = false;

  constructor(readonly options: FastLaneOptions) {
    this.answers = new RawAnswers(options.keepAliveTimeoutMs);
  }

  /**
   * Puts the lane in front of the server's own connection handling: node:http's one
   * 'connection' listener, which the lane calls for the connections it hands over. Only
   * EventEmitter's documented methods; why this and not a server of the lane's own in front is
   * in docs/adr/0013-fast-lane.md.
   */
  install(server: Server): void {
    const listeners = server.listeners('connection');
    if (listeners.length !== 1) throw new Error(`the fast lane expects node:http's one connection listener, found ${listeners.length}`);
    const connectionListener = listeners[0] as (this: Server, socket: Socket) => void;
    server.removeListener('connection', connectionListener);
    this.nodeHttp = (socket) => connectionListener.call(server, socket);
    server.on('connection', (socket: Socket) => this.adopt(socket));
  }

  get isClosing(): boolean {
    return this.closing;
  }

  /**
   * The server is closing: new connections go to node:http (Fastify answers 503), idle ones are
   * closed now, and one awaiting an answer is closed once the answer is written.
   */
  close(): void {
    this.closing = true;
    for (const connection of this.connections) connection.closeIfIdle();
  }

  /** Closes every connection still in the lane, awaited answers or not (node:http's closeAllConnections() knows only its own). */
  destroyAll(): void {
    this.closing = true;
    for (const connection of this.connections) connection.destroy();
  }

  handOver(socket: Socket, connection: LaneConnection | null): void {
    if (connection) this.connections.delete(connection);
    this.nodeHttp!(socket);
  }

  private adopt(socket: Socket): void {
    if (this.closing) {
      this.handOver(socket, null);
      return;
    }
    const connection = new LaneConnection(socket, this);
    this.connections.add(connection);
    socket.once('close', () => this.connections.delete(connection));
  }
}

class LaneConnection {
  /** An answer is awaited (a cap or rotation in a shared store): reading waits for it. */
  private awaiting = false;
  /** The client has sent all it will (FIN): the socket ends once nothing is awaited. */
  private ended = false;
  /** Handed over to node:http: no longer the lane's. */
  private gone = false;
  /** Ended after its last answer: what the client still sends is not read. */
  private finishing = false;

  constructor(
    private readonly socket: Socket,
    private readonly lane: FastLane,
  ) {
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('error', this.onError);
    socket.on('timeout', this.onTimeout);
    socket.on('drain', this.onDrain);
    if (lane.options.keepAliveTimeoutMs > 0) socket.setTimeout(lane.options.keepAliveTimeoutMs);
  }

  closeIfIdle(): void {
    if (!this.awaiting) this.socket.destroy();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private readonly onData = (chunk: Buffer): void => {
    if (!this.finishing) this.read(chunk, 0);
  };

  /**
   * Ends the connection after its last answer. A paused socket reads nothing, not even the
   * client's FIN, and would never close: it reads on, ignoring anything but the end.
   */
  private finish(): void {
    this.finishing = true;
    this.socket.end();
    if (!this.ended) this.socket.resume();
  }

  /** The bytes from `start` on: a chunk from 'data' is the connection's own, so a view will do. */
  private keep(bytes: Buffer, start: number): Buffer {
    return start === 0 ? bytes : bytes.subarray(start);
  }

  /** Answers the requests in `bytes` from `start` on, in order, until one is not the lane's. */
  private read(bytes: Buffer, start: number): void {
    while (start < bytes.length) {
      if (this.lane.isClosing) return this.handOver(bytes, start);
      const head = readRequestHead(bytes, start);
      // A head split across packets is rare enough to leave to node:http, with the connection.
      if (head === null || head === INCOMPLETE) return this.handOver(bytes, start);
      const request: VisitHead = { method: head.method, url: head.url, headers: head.headers, socket: this.socket };
      let answer: Answer | Promise<Answer> | null;
      try {
        answer = this.lane.options.visit(request);
      } catch (error) {
        // Answered as a visit that rejects: a 500, and the answers stay in order.
        answer = Promise.reject(error instanceof Error ? error : new Error('the visit failed', { cause: error }));
      }
      if (answer === null) return this.handOver(bytes, start);
      start += head.length;
      const isHead = head.method === 'HEAD';
      if (!(answer instanceof Promise)) {
        this.write(answer, isHead);
        continue;
      }
      // Later pipelined requests wait for this one's answer: answers go out in order.
      this.awaiting = true;
      this.socket.pause();
      const rest = start < bytes.length ? this.keep(bytes, start) : null;
      answer
        .then(
          (a) => this.write(a, isHead),
          (error: unknown) => this.fail(error, isHead),
        )
        .then(() => {
          this.awaiting = false;
          if (this.socket.destroyed) return;
          if (rest !== null) this.read(rest, 0);
          if (this.awaiting || this.gone || this.socket.destroyed) return;
          if (this.ended || this.lane.isClosing) this.finish();
          else this.resume();
        })
        .catch((error: unknown) => {
          // A fault in the lane itself: this connection cannot be trusted to stay in order.
          this.lane.options.onError(error);
          this.socket.destroy();
        });
      return;
    }
  }

  private write(answer: Answer, isHead: boolean): void {
    if (this.socket.destroyed) return;
    let bytes: Buffer | string;
    try {
      bytes = this.lane.answers.answer(answer, isHead);
    } catch (error) {
      this.fail(error, isHead);
      return;
    }
    this.send(bytes);
  }

  private fail(error: unknown, isHead: boolean): void {
    this.lane.options.onError(error);
    if (!this.socket.destroyed) this.send(this.lane.answers.serverError(isHead, failedVisit(error)));
  }

  private send(bytes: Buffer | string): void {
    // A client that sends faster than it reads is not read until it has caught up.
    if (!(typeof bytes === 'string' ? this.socket.write(bytes, 'latin1') : this.socket.write(bytes))) this.socket.pause();
  }

  private resume(): void {
    if (!this.awaiting && !this.socket.writableNeedDrain) this.socket.resume();
  }

  private handOver(bytes: Buffer, start: number): void {
    const socket = this.socket;
    this.gone = true;
    socket.pause();
    socket.removeListener('data', this.onData);
    socket.removeListener('end', this.onEnd);
    socket.removeListener('error', this.onError);
    socket.removeListener('timeout', this.onTimeout);
    socket.removeListener('drain', this.onDrain);
    socket.setTimeout(0);
    if (start < bytes.length) socket.unshift(this.keep(bytes, start));
    this.lane.handOver(socket, this);
    socket.resume();
  }

  private readonly onEnd = (): void => {
    this.ended = true;
    // The server allows half-open connections (node:http's choice): ending is ours to do.
    if (!this.awaiting) this.socket.end();
  };

  private readonly onError = (): void => {
    // A reset or a broken pipe from the client: nothing is owed to it any more.
    this.socket.destroy();
  };

  private readonly onTimeout = (): void => {
    if (!this.awaiting) this.socket.destroy();
  };

  private readonly onDrain = (): void => {
    this.resume();
  };
}
