import type { HealthReason } from './health.ts';

/** A workspace with links newly broken, named as its people know it. */
export interface DigestWorkspace {
  id: number;
  name: string;
}

/** Someone a workspace's digest goes to: an admin or owner who has not turned it off. */
export interface DigestRecipient {
  userId: number;
  name: string;
  email: string;
}

/** A link a digest tells: broken now, and since a time inside the digest's window. */
export interface BrokenLinkLine {
  linkId: number;
  alias: string;
  /** The custom domain's name; null: the app's own host. */
  domain: string | null;
  url: string;
  code: number | null;
  reason: HealthReason | null;
  brokenSince: number;
}

/** Where digests find their links and people, and claim their sending (docs/design/health.md). */
export interface HealthDigestStore {
  /** Workspaces (not suspended) with an enabled link broken now whose run of broken checks began after `since`. */
  workspacesWithBroken(since: number): Promise<DigestWorkspace[]>;
  /** The workspace's admins and owners (not suspended) who get the digest. */
  recipients(workspaceId: number): Promise<DigestRecipient[]>;
  /**
   * Takes the person's digest of the workspace for `day` (UTC `YYYY-MM-DD`) with its window's
   * end: null when it was taken already (another round, another instance); else the end of
   * the person's last digest before (null: none).
   */
  claim(
    workspaceId: number,
    userId: number,
    day: string,
    until: number,
  ): Promise<{ previousUntil: number | null } | null>;
  /** Gives a claim back (its mail could not be sent): a later round tries again. */
  release(workspaceId: number, userId: number, day: string): Promise<void>;
  /** Up to `limit` of the workspace's enabled links broken now, broken since a time in (since, until], oldest first. */
  newlyBroken(workspaceId: number, since: number, until: number, limit: number): Promise<BrokenLinkLine[]>;
}

/** A person's choice to get the digest (on unless turned off). */
export interface DigestPreferences {
  wantsDigest(userId: number): Promise<boolean>;
  setDigest(userId: number, on: boolean): Promise<void>;
}
