/**
 * busboy's own errors for a body that is not the multipart/form-data its header says: no usable
 * boundary, or a body that ends inside a part or before the closing boundary. They carry no
 * status, so unrecognised they would be answered as a server fault.
 */
const MALFORMED =
  /^(Multipart: Boundary not found|Boundary required|Unexpected end of multipart data|.+ terminated early due to unexpected end of multipart data|The needle cannot .+)$/;

export function isMalformedMultipart(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { statusCode?: unknown }).statusCode === undefined &&
    MALFORMED.test(error.message)
  );
}

export const MALFORMED_MULTIPART_MESSAGE = 'The request body is not well-formed multipart/form-data.';

/** A malformed multipart body, as the error handlers take it: a 400 (the API's envelope, the web app's error page). */
export class MalformedMultipartError extends Error {
  readonly statusCode = 400;
  constructor(cause: unknown) {
    super(MALFORMED_MULTIPART_MESSAGE, { cause });
  }
}
