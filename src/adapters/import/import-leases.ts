/**
 * Whose import is running: a workspace's (one import at a time into it) and a person's (one
 * import at a time by them, whichever workspace), shared by the instances on one database
 * (storage/stores/import-lease-store.ts). docs/design/imports.md.
 */
export interface LeaseSubject {
  kind: 'workspace' | 'person';
  id: number;
}

export interface ImportLeases {
  /** Takes the subject's lease for `holder` until `until`, unless another holder's runs past `now`; whether it was taken. */
  take(subject: LeaseSubject, holder: string, now: number, until: number): Promise<boolean>;
  /** Pushes the holder's lease on to `until`; false when the lease is no longer the holder's (taken over, or gone). */
  extend(subject: LeaseSubject, holder: string, until: number): Promise<boolean>;
  release(subject: LeaseSubject, holder: string): Promise<void>;
}
