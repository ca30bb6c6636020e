import type { Page } from './layout.ts';
import { messagePage } from './message-page.ts';

/** 404: no link answers at this address. The alias is not echoed back: nothing to gain from it. */
export function renderNotFound(input: { nonce: string }): Page {
  return messagePage(input.nonce, 'Link not found', [
    'There is no link at this address. It may have been mistyped, or removed by its owner.',
    'Check the address you followed, or ask whoever shared it for a new one.',
  ]);
}
