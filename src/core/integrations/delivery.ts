/** One post to an integration's endpoint as the sender made it: the bytes it signed and its headers. */
export interface Delivery {
  raw: Buffer;
  /** A header's value by its lower-case name (the first, when repeated). */
  header(name: string): string | undefined;
}

/** A sale the sender told of; the click id is the one the redirect issued, if the shop kept it. */
export interface Sale {
  clickId: string | null;
  /** In the currency's major unit (19.99), as a conversion's value is. */
  value: number | string | null;
  currency: string | null;
}

/** An event the sender signed: its own id (a retry repeats it) and the sale, null when it tells of none. */
export interface SenderEvent {
  eventId: string;
  sale: Sale | null;
}

/** What linkpix knows of one sender: how it signs, and which of its events are sales. */
export interface Sender {
  verify(delivery: Delivery, secret: string, now: number): boolean;
  /** The event, or null when it is none this integration records (another type, or no id). */
  read(delivery: Delivery): SenderEvent | null;
}

/** The body as JSON when it is an object, else null: a signed body that is not one records nothing. */
export function jsonObjectOf(raw: Buffer): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export const objectOf = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export const textOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** The query parameter a shop carries the click id in (docs/api.md, Integrations). */
export const CLICK_ID_FIELD = 'lpx_cid';
