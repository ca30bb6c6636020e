import type { Page } from './layout.ts';
import { messagePage } from './message-page.ts';

/** 410: the link existed but has passed its end date or its visit limit. */
export function renderExpired(input: { nonce: string }): Page {
  return messagePage(input.nonce, 'This link has expired', [
    'The link you followed was only valid for a limited time or a limited number of visits, and it is no longer active.',
    'If you still need it, ask whoever shared it for a new link.',
  ]);
}
