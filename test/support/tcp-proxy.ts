import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on loopback that a test can cut, as a network failure or a database restart
 * does: cut() closes every connection through it and refuses new ones; restore() accepts again
 * on the same port.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private listenPort: number,
    private readonly target: { host: string; port: number },
  ) {}

  get port(): number {
    return this.listenPort;
  }

  static async start(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
    const proxy = new TcpProxy(port, target);
    await proxy.listen();
    return proxy;
  }

  /** Accepts connections again (after cut()). */
  async restore(): Promise<void> {
    if (!this.server) await this.listen();
  }

  /** Closes every connection at once and refuses new ones until restore(). */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  close(): Promise<void> {
    return this.cut();
  }

  private listen(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('error', () => {});
        socket.on('close', () => {
          this.sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.listenPort, '127.0.0.1', () => {
        const address = server.address();
        if (typeof address === 'object' && address) this.listenPort = address.port;
        resolve();
      });
    });
  }
}
