/** A file part of a multipart body: its field, its bytes and the name a browser or curl gives it. */
export interface FilePart {
  field: string;
  bytes: Uint8Array | string;
  name: string;
}

/**
 * A multipart/form-data body as a browser or curl sends it (text fields first, then the files),
 * with its content type: what `h.request` takes as `body` and `headers`.
 */
export async function multipartBody(files: readonly FilePart[], fields: Record<string, string> = {}, method = 'POST') {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files)
    form.append(f.field, new Blob([typeof f.bytes === 'string' ? f.bytes : new Uint8Array(f.bytes)]), f.name);
  const request = new Request('http://x/', { method, body: form });
  return { body: await request.arrayBuffer(), headers: { 'content-type': request.headers.get('content-type')! } };
}
