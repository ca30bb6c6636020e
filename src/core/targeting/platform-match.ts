import type { KeyedTarget, Platform } from './target.ts';

// Ubuntu is the one platform in the seed's list that is also another one: an Ubuntu visitor
// can run what a Linux entry offers. Android and Chrome OS run a Linux kernel too, but a
// Linux entry means desktop Linux (a .deb, a tarball) that would not install there.
const FALLBACK: Partial<Record<Platform, Platform>> = { Ubuntu: 'Linux' };

/** Destination of the entry for this platform, or null (the caller then uses the link's url). */
export function matchPlatform(entries: KeyedTarget[], platform: Platform | null): string | null {
  if (platform === null) return null;
  const exact = entries.find((e) => e.key === platform);
  if (exact !== undefined) return exact.value;
  const fallback = FALLBACK[platform];
  if (fallback === undefined) return null;
  return entries.find((e) => e.key === fallback)?.value ?? null;
}
