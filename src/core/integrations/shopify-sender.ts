import { createHmac, timingSafeEqual } from 'node:crypto';
import { CLICK_ID_FIELD, jsonObjectOf, objectOf, textOf, type Delivery, type Sender } from './delivery.ts';

const BASE64 = /^[A-Za-z0-9+/]{43}=$/;

/** `X-Shopify-Hmac-Sha256`: the base64 HMAC-SHA256 of the body with the app's secret (shopify.dev, "Verify a webhook"). */
function verify(delivery: Delivery, secret: string): boolean {
  const header = delivery.header('x-shopify-hmac-sha256')?.trim();
  if (header === undefined || !BASE64.test(header)) return false;
  const expected = createHmac('sha256', secret).update(delivery.raw).digest();
  return timingSafeEqual(Buffer.from(header, 'base64'), expected);
}

/** The click id from the order's note attributes (a cart attribute the shop set), else its landing page's query. */
function clickIdOf(order: Record<string, unknown>): string | null {
  const notes = Array.isArray(order['note_attributes']) ? order['note_attributes'] : [];
  for (const note of notes) {
    const { name, value } = objectOf(note);
    if (name === CLICK_ID_FIELD && textOf(value) !== null) return textOf(value);
  }
  const landing = textOf(order['landing_site']);
  if (landing === null) return null;
  try {
    return textOf(new URL(landing, 'https://shop.invalid').searchParams.get(CLICK_ID_FIELD));
  } catch {
    return null;
  }
}

/**
 * Shopify: `orders/create` (`X-Shopify-Topic`), its id the delivery's `X-Shopify-Webhook-Id`
 * (a retry repeats it), else the order's id; `total_price` is in the major unit already.
 */
export const shopifySender: Sender = {
  verify,
  read(delivery) {
    const order = jsonObjectOf(delivery.raw);
    if (order === null) return null;
    const orderId = order['id'];
    const eventId =
      textOf(delivery.header('x-shopify-webhook-id')) ??
      (typeof orderId === 'number' || typeof orderId === 'string' ? `order:${orderId}` : null);
    if (eventId === null) return null;
    if (delivery.header('x-shopify-topic')?.trim() !== 'orders/create') return { eventId, sale: null };
    const total = order['total_price'];
    return {
      eventId,
      sale: {
        clickId: clickIdOf(order),
        value: typeof total === 'string' || typeof total === 'number' ? total : null,
        currency: textOf(order['currency'])?.toUpperCase() ?? null,
      },
    };
  },
};
