import type { Platform } from '../targeting/target.ts';

/** The fields of a link and of a rule that send visitors on that OS to its app (docs/design/rules.md). */
export const APP_LINK_FIELDS = ['ios_url', 'android_url'] as const;

/** The app link for a visitor's OS among a link's or a rule's, or null: the web URL serves. */
export function appLinkFor(
  platform: Platform | null,
  iosUrl: string | null | undefined,
  androidUrl: string | null | undefined,
): string | null {
  if (platform === 'iOS') return iosUrl ?? null;
  if (platform === 'Android') return androidUrl ?? null;
  return null;
}

/**
 * A custom scheme (myapp://…) opens the app or nothing at all: the visitor goes through a page
 * that falls back to the web URL. An https app link needs no page: the OS opens the app when it
 * is installed, and the browser the same URL when it is not.
 */
export function isCustomScheme(url: string): boolean {
  return !/^https:\/\//i.test(url);
}
