/**
 * A PostgreSQL schema of its own reached through a TCP proxy the test can cut (tcp-proxy.ts), an
 * admin connection that goes around the proxy, and what the outage tests of server processes
 * read with it: a link's click rows and counter, and whether a redirect snapshot holds links.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { isolatedPgUrl } from './processes.ts';
import { TcpProxy } from './tcp-proxy.ts';
import { testDatabaseUrl } from './test-database-url.ts';

export interface ProxiedPostgres {
  proxy: TcpProxy;
  /** DATABASE_URL for linkpix: the schema, through the proxy. */
  url: string;
  /** Around the proxy: reads what was written whatever the proxy does. */
  admin: pg.Client;
  /** The click rows of a link, and its counter (links.clicks and what waits to be settled into it). */
  clicksOf(linkId: number): Promise<{ rows: number; counter: number }>;
  close(): Promise<void>;
}

export async function proxiedPostgres(): Promise<ProxiedPostgres> {
  const schema = await isolatedPgUrl(testDatabaseUrl());
  const target = new URL(schema.url);
  const proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
  const admin = new pg.Client({ connectionString: schema.url });
  await admin.connect();
  const viaProxy = new URL(schema.url);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  return {
    proxy,
    url: viaProxy.toString(),
    admin,
    clicksOf: async (linkId) => {
      const counter = await admin.query<{ clicks: number }>(
        'select (clicks + coalesce((select p.clicks from link_click_counts p where p.link_id = links.id), 0))::int as clicks from links where id = $1',
        [linkId],
      );
      const rows = await admin.query<{ n: number }>('select count(*)::int as n from clicks where link_id = $1', [
        linkId,
      ]);
      return { rows: rows.rows[0]!.n, counter: counter.rows[0]!.clicks };
    },
    close: async () => {
      await proxy.close();
      await admin.end();
      await schema.drop();
    },
  };
}

/** Whether the snapshot file at `path` holds a link of each alias (read as text: the reader's checks are its own tests'). */
export function snapshotHolds(path: string, aliases: readonly string[]): boolean {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return false;
  }
  return aliases.every((alias) => text.includes(`"alias":${JSON.stringify(alias)}`));
}
