import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body parsed. */
  json: { id: string; type: string; created_at: string; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** What the receiver answered. */
  status: number;
}

/** A webhook receiver on 127.0.0.1: records every POST; answers the statuses queued for its path, then 200. */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private readonly plans = new Map<string, number[]>();
  private readonly always = new Map<string, number>();
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const status = this.plans.get(path)?.shift() ?? this.always.get(path) ?? 200;
        const body = Buffer.concat(chunks).toString('utf8');
        this.received.push({ path, headers: req.headers, body, json: JSON.parse(body), status });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The next answers on this path. */
  answer(path: string, ...statuses: number[]): void {
    this.plans.set(path, statuses);
  }

  /** Every answer on this path, once the queued ones are used. */
  answerAlways(path: string, status: number): void {
    this.always.set(path, status);
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
