export interface Account {
  id: number;
  name: string;
  email: string;
  timezone: string;
  createdAt: number;
  /** An operator: sees and moderates every account (the first account made is one). */
  isAdmin: boolean;
  /** Set while an operator has suspended the account: its keys, sessions and links stop working. */
  suspendedAt: number | null;
}

export interface ApiKey {
  id: number;
  /** The workspace the key acts in (docs/design/teams.md). */
  accountId: number;
  /** The person whose role bounds the key. */
  userId: number;
  /** Null: every scope the user's role allows. */
  scopes: string[] | null;
  expiresAt: number | null;
  name: string | null;
  /** The first characters of the key, kept in the clear so an operator can tell keys apart. */
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface NewAccount {
  email: string;
  name: string;
  timezone: string;
}

/** A signed-in browser: the token itself lives only in the cookie, the store keeps its digest. */
export interface Session {
  id: number;
  accountId: number;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  userAgent: string | null;
  address: string | null;
}
