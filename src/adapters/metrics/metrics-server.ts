import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerTokenCheck } from './bearer-token.ts';
import type { MetricsText } from './metrics-registry.ts';

export interface MetricsServerOptions {
  host: string;
  port: number;
  /** Also asked for here when set; the port's own reach (METRICS_PORT's host) is the protection otherwise. */
  token: string | null;
  metrics: MetricsText;
  onError(error: unknown): void;
}

export interface MetricsServer {
  /** The port it listens on. */
  readonly port: number;
  close(): Promise<void>;
}

/**
 * GET /metrics on a port of its own (METRICS_PORT), apart from the app's: a scraper reaches it
 * on a private address while the public one never serves it. Nothing else is served there.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const allowed = options.token === null ? () => true : bearerTokenCheck(options.token);
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') return answer(404, 'not found\n');
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return answer(405, 'method not allowed\n', { allow: 'GET, HEAD' });
    if (!allowed(req.headers.authorization))
      return answer(401, 'unauthenticated\n', { 'www-authenticate': 'Bearer realm="metrics"' });
    options.metrics.text().then(
      (text) => answer(200, text, { 'content-type': options.metrics.contentType }),
      (error: unknown) => {
        options.onError(error);
        answer(500, 'metrics failed\n');
      },
    );

    function answer(status: number, body: string, headers: Record<string, string> = {}): void {
      res.writeHead(status, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        ...headers,
        'content-length': Buffer.byteLength(body),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => options.onError(error));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
