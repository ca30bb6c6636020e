// The import page's form posted as a browser does, and what its pages say, for the web import tests.
import { csrfOf, type WebClient } from '../../support/web-client.ts';
import type { ImportSlots } from '../../../src/adapters/import/import-slots.ts';

/** Posts the import form as a browser does: multipart, the CSRF token its first field. */
export async function upload(
  client: WebClient,
  fields: Record<string, string>,
  file: string | null,
  csrf?: string | null,
): Promise<{ status: number; text: string }> {
  const token = csrf === undefined ? await client.csrf('/links/import') : csrf;
  const boundary = '----linkpiximport7MA4YWxk';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(token === null ? fields : { _csrf: token, ...fields }))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file === null ? '' : 'links.csv'}"\r\nContent-Type: text/csv\r\n\r\n${file ?? ''}\r\n--${boundary}--\r\n`,
    ),
  );
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(`${client.baseUrl}/links/import`, {
    method: 'POST',
    body: Buffer.concat(parts),
    redirect: 'manual',
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  return { status: res.status, text: await res.text() };
}

export const count = (page: string, status: string) =>
  Number(new RegExp(`data-count="${status}">(\\d+)<`).exec(page)?.[1] ?? NaN);
export const hidden = (page: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? null;

/** Confirms the dry run `page` showed, as its form does: its token, its kept file's token and its choices, at once. */
export function confirm(client: WebClient, page: string) {
  return client.post('/links/import/run', {
    _csrf: csrfOf(page),
    upload: hidden(page, 'upload') ?? '',
    format: hidden(page, 'format') ?? '',
    on_conflict: hidden(page, 'on_conflict') ?? '',
  });
}

/**
 * Slows the giving back of every import's leases by `ms`, as a busy database would: a page sent
 * before they are back lets the next request find them taken. Answers the undoing.
 */
export function slowLeaseRelease(slots: ImportSlots, ms: number): () => void {
  const claim = slots.claim.bind(slots);
  // An own property in front of the prototype's method: deleting it undoes the change.
  slots.claim = async (...args: Parameters<ImportSlots['claim']>) => {
    const ticket = await claim(...args);
    const release = ticket.release.bind(ticket);
    ticket.release = async () => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      await release();
    };
    return ticket;
  };
  return () => {
    delete (slots as Partial<Pick<ImportSlots, 'claim'>>).claim;
  };
}
