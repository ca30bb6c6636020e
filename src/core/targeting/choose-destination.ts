import type { Visitor } from '../redirect/visitor.ts';
import { matchPlatform } from './platform-match.ts';
import { TargetType, type KeyedTarget, type Targets } from './target.ts';

export type Destination =
  | { kind: 'fixed'; url: string }
  /** Round-robin over these, in order; the counter must be atomic, so it lives with the caller. */
  | { kind: 'rotate'; entries: string[] };

export interface TargetedLink {
  url: string;
  targetType: TargetType;
  targets: Targets;
}

/** Where a visit goes. Only the list named by targetType acts; no match means the link's url. */
export function chooseDestination(
  link: TargetedLink,
  visitor: Pick<Visitor, 'country' | 'platform' | 'languages'>,
): Destination {
  const { targets } = link;
  let url: string | null = null;
  switch (link.targetType) {
    case TargetType.Country:
      url = visitor.country === null ? null : valueFor(targets.country, visitor.country);
      break;
    case TargetType.Platform:
      url = matchPlatform(targets.platform ?? [], visitor.platform);
      break;
    case TargetType.Language:
      for (const lang of visitor.languages) {
        url = valueFor(targets.language, lang);
        if (url !== null) break;
      }
      break;
    case TargetType.Rotation: {
      const entries = (targets.rotation ?? []).map((r) => r.value);
      // One entry needs no counter: skipping it saves a round trip to the shared store.
      if (entries.length > 1) return { kind: 'rotate', entries };
      url = entries[0] ?? null;
      break;
    }
  }
  return { kind: 'fixed', url: url ?? link.url };
}

// Keys are stored normalized (countries upper case, languages lower case), as the visitor's are.
function valueFor(list: KeyedTarget[] | null, key: string): string | null {
  return list?.find((e) => e.key === key)?.value ?? null;
}
