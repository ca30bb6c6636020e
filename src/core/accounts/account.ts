export interface Account {
  id: number;
  name: string;
  email: string;
  timezone: string;
  createdAt: number;
}

export interface ApiKey {
  id: number;
  accountId: number;
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
