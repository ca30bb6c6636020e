import type { Harness } from '../../support/harness.ts';
import { multipartBody } from '../../support/multipart.ts';
import { rawConnection, type RawConnection } from '../../support/raw-http.ts';

/** A multipart body as a browser or curl sends it: the file under `file`. */
const multipart = (file: string, fields: Record<string, string> = {}) =>
  multipartBody([{ field: 'file', bytes: file, name: 'links.csv' }], fields);

export async function importFile(h: Harness, key: string, file: string, fields: Record<string, string> = {}) {
  return h.request('POST', '/api/v1/links/import', { key, ...(await multipart(file, fields)) });
}

export interface Trickle {
  connection: RawConnection;
  /** Sends the rest of the body. */
  finish(): Promise<void>;
}

/** An import whose head and first half of its body are sent, the rest when `finish` is called: an upload still arriving. */
export async function trickle(h: Harness, key: string, file: string): Promise<Trickle> {
  const { body, headers } = await multipart(file);
  const bytes = Buffer.from(body);
  const connection = await rawConnection(Number(new URL(h.baseUrl).port));
  const half = bytes.length >> 1;
  await connection.write(
    `POST /api/v1/links/import HTTP/1.1\r\nhost: localhost\r\nauthorization: Bearer ${key}\r\ncontent-type: ${headers['content-type']}\r\ncontent-length: ${bytes.length}\r\n\r\n${bytes.subarray(0, half).toString('latin1')}`,
  );
  return { connection, finish: () => connection.write(bytes.subarray(half).toString('latin1')) };
}

/** The holders of the workspace's and the person's import leases (migrations 0021, 0042). */
export async function leaseHolders(
  h: Harness,
  workspaceId: number,
  personId: number,
): Promise<{ workspace: string | null; person: string | null }> {
  const db = h.server.container.storage.db;
  const workspace = await db
    .selectFrom('import_leases')
    .select('holder')
    .where('account_id', '=', workspaceId)
    .executeTakeFirst();
  const person = await db
    .selectFrom('import_person_leases')
    .select('holder')
    .where('person_id', '=', personId)
    .executeTakeFirst();
  return { workspace: workspace?.holder ?? null, person: person?.holder ?? null };
}
