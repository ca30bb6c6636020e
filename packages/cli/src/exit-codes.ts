/** What the `linkpix` command exits with, for scripts to test (packages/cli/README.md). */
export const EXIT = {
  ok: 0,
  /** The API refused the request (a 4xx other than 401, a 5xx), had no such thing, or could not be reached. */
  api: 1,
  /** The command line was wrong: an unknown command or flag, a missing argument. */
  usage: 2,
  /** No login (nor LINKPIX_URL and LINKPIX_API_KEY), or the server refused the key (401). */
  auth: 3,
} as const;

/** A mistake in the command line; its message says which. */
export class UsageError extends Error {}

/** No key to send, or one the server refused. */
export class AuthError extends Error {}

/** What the command line names is not on the server (a domain's host name, say). */
export class NotFoundError extends Error {}
