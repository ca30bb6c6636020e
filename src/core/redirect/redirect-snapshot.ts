import type { Rule } from '../rules/rule.ts';
import { compileLinkRules } from '../rules/compile-targeting.ts';
import type { TargetType, Targets } from '../targeting/target.ts';
import type { RedirectDomain, RedirectLink } from './redirect-link.ts';

/**
 * A link as the redirect snapshot keeps it (docs/design/snapshot.md): what a visit needs, with
 * its rules as written rather than compiled (closures do not go to a file); compiled again when
 * read back (`fromSnapshot`).
 */
export type SnapshotLink = Omit<RedirectLink, 'rules'> & {
  ruleSource: { rules: Rule[] | null; targetType: TargetType; targets: Targets };
};

/** A link and the host it answers on: a custom domain's name, or null for the app's own. */
export interface SnapshotRow {
  host: string | null;
  link: SnapshotLink;
}

/** A verified custom domain as the snapshot keeps it. */
export interface SnapshotDomain extends RedirectDomain {
  name: string;
}

/** What the snapshot's writer reads: every link a visit can reach, a page at a time, in id order. */
export interface SnapshotSource {
  /** At most `limit` enabled links with an id above `afterId`, in id order. */
  snapshotPage(afterId: number, limit: number): Promise<SnapshotRow[]>;
  /** Every verified custom domain. */
  snapshotDomains(): Promise<SnapshotDomain[]>;
}

/** The link a visit is answered with, its rules compiled as a read from the database compiles them. */
export function fromSnapshot(link: SnapshotLink): RedirectLink {
  const { ruleSource, ...rest } = link;
  // A file written before cards were kept has none: its links show no card until the next file.
  return { ...rest, card: rest.card ?? null, rules: compileLinkRules(ruleSource) };
}
