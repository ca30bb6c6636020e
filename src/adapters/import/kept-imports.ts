/**
 * A web dry run's file, kept for the import that may follow (docs/design/imports.md): shared by
 * every instance on the database, so the confirmation may reach any of them.
 */
export interface KeptImport {
  workspaceId: number;
  personId: number;
  /** The random token the confirmation form carries; stored only as its digest. */
  token: string;
  format: string;
  onConflict: string;
  bytes: Uint8Array;
  /** When it is no longer importable, and the expiry job may remove it. */
  expiresAt: number;
}

export type KeptFile = Pick<KeptImport, 'format' | 'onConflict' | 'bytes'>;

export interface KeptImports {
  /** Keeps the file, replacing the workspace's and person's last one. */
  keep(kept: KeptImport, now: number): Promise<void>;
  /**
   * Takes the file the token names, if it is the workspace's and person's and still importable:
   * removed in the same statement, so a second confirmation finds nothing.
   */
  take(subjects: { workspaceId: number; personId: number }, token: string, now: number): Promise<KeptFile | null>;
  /** Removes the files past their time; answers how many. */
  removeExpired(now: number): Promise<number>;
}
