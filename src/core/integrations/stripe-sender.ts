import { createHmac, timingSafeEqual } from 'node:crypto';
import { CLICK_ID_FIELD, jsonObjectOf, objectOf, textOf, type Delivery, type Sender, type Sale } from './delivery.ts';
import { fromMinorUnits } from './minor-units.ts';

/** Stripe's own default: a signature older or newer than this is refused (a replay of a captured post). */
const TOLERANCE_MS = 5 * 60 * 1000;

/** `t=…,v1=…[,v1=…]` (docs.stripe.com/webhooks, "Verify signatures manually"). */
function partsOf(header: string): { at: number; signatures: string[] } | null {
  let at: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [name, value] = part.split('=', 2).map((s) => s.trim());
    if (name === 't' && value && /^\d{1,12}$/.test(value)) at = Number(value) * 1000;
    else if (name === 'v1' && value && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  return at === null || signatures.length === 0 ? null : { at, signatures };
}

function verify(delivery: Delivery, secret: string, now: number): boolean {
  const header = delivery.header('stripe-signature');
  const parts = header === undefined ? null : partsOf(header);
  if (parts === null || Math.abs(now - parts.at) > TOLERANCE_MS) return false;
  const expected = createHmac('sha256', secret)
    .update(`${parts.at / 1000}.`)
    .update(delivery.raw)
    .digest();
  return parts.signatures.some((s) => timingSafeEqual(Buffer.from(s, 'hex'), expected));
}

/** A Checkout Session paid, or a PaymentIntent that succeeded: the amount and the click id it carries. */
function saleOf(type: string, object: Record<string, unknown>): Sale | null {
  const amount = type === 'checkout.session.completed' ? object['amount_total'] : object['amount_received'];
  const currency = textOf(object['currency']);
  const metadata = objectOf(object['metadata']);
  const clickId =
    (type === 'checkout.session.completed' ? textOf(object['client_reference_id']) : null) ??
    textOf(metadata[CLICK_ID_FIELD]);
  const minor = typeof amount === 'number' && Number.isSafeInteger(amount) ? amount : null;
  return {
    clickId,
    value: minor !== null && currency !== null ? fromMinorUnits(minor, currency) : null,
    currency: currency?.toUpperCase() ?? null,
  };
}

const SALE_EVENTS = new Set(['checkout.session.completed', 'payment_intent.succeeded']);

/** Stripe: `Stripe-Signature` over `{t}.{body}` with the endpoint's signing secret; the event's id. */
export const stripeSender: Sender = {
  verify,
  read(delivery) {
    const event = jsonObjectOf(delivery.raw);
    const id = textOf(event?.['id']);
    const type = textOf(event?.['type']);
    if (event === null || id === null || type === null) return null;
    if (!SALE_EVENTS.has(type)) return { eventId: id, sale: null };
    return { eventId: id, sale: saleOf(type, objectOf(objectOf(event['data'])['object'])) };
  },
};
