import type { PixelType } from '../../../core/pixels/pixel.ts';
import { buildCsp } from './csp.ts';
import { html } from '../../shared/html/html.ts';
import { layout, type Page } from './layout.ts';
import { PIXEL_VENDOR_NAMES } from './pixel-hosts.ts';

export interface ConsentPageInput {
  nonce: string;
  /** Linked in the footer (the layout's privacyUrl). */
  privacyUrl?: string;
  /** The vendors whose pixels this link would load, so the choice is an informed one. */
  vendors?: readonly PixelType[];
  /** How long the answer is remembered, as set for the deployment (default 30). */
  rememberDays?: number;
}

/**
 * Asks before any tracking pixel loads. Both answers post `consent=yes|no` to the same URL; the
 * caller stores the answer in a cookie and continues. Decline is as easy to reach as Accept.
 */
export function renderConsent(input: ConsentPageInput): Page {
  const names = [...new Set(input.vendors ?? [])].map((t) => PIXEL_VENDOR_NAMES[t]);
  const days = Math.max(1, Math.round(input.rememberDays ?? 30));
  const main = html`<h1>Allow tracking?</h1>
<p>The owner of this link measures visits with tracking pixels from advertising and analytics services${
    names.length > 0 ? html`: ${names.join(', ')}` : ''
  }. They may set cookies and learn that you visited.</p>
<p>You will reach the destination whatever you choose. Your answer is remembered for ${days === 1 ? '1 day' : `${days} days`}.</p>
<form method="post" action="">
<div class="actions">
<button type="submit" name="consent" value="yes">Accept</button>
<button type="submit" name="consent" value="no" class="secondary">Decline</button>
</div>
</form>`;
  return {
    html: layout({ title: 'Allow tracking?', nonce: input.nonce, main, privacyUrl: input.privacyUrl }),
    csp: buildCsp(input.nonce),
  };
}
