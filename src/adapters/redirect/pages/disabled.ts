import type { Page } from './layout.ts';
import { messagePage } from './message-page.ts';

/** Sent with a 404-class status: the link exists but its owner (or an administrator) turned it off. */
export function renderDisabled(input: { nonce: string }): Page {
  return messagePage(input.nonce, 'This link has been disabled', [
    'The link you followed has been turned off and does not lead anywhere at the moment.',
    'If you think this is a mistake, contact whoever shared it with you.',
  ]);
}
