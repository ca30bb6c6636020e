/** How a change came in: the web app's session, an API key, the operator's CLI, an import, a link's restore or its scheduled change. */
export const AUDIT_VIA = ['web', 'api', 'cli', 'import', 'restore', 'schedule'] as const;
export type AuditVia = (typeof AUDIT_VIA)[number];

/**
 * Who made a change, handed to the core by the adapter that knows it (docs/design/teams.md): the
 * person (null: the operator at the CLI), the key when it came through one, and the door.
 */
export interface AuditActor {
  userId: number | null;
  keyId: number | null;
  via: AuditVia;
}

/** The operator at the CLI: no person, no key (docs/design/teams.md). */
export const CLI_OPERATOR: AuditActor = Object.freeze({ userId: null, keyId: null, via: 'cli' });

/** A field's value before and after; a secret's is the word "changed", never the value. */
export type AuditChanges = Record<string, [unknown, unknown] | 'changed'>;

/** One change to one record, as it is written in the change's own transaction. */
export interface NewAuditEntry {
  workspaceId: number;
  actor: AuditActor;
  /** `link.created`, `member.role_changed`, …: the target's type, a dot, what happened. */
  action: string;
  target: { type: string; id: number };
  changes: AuditChanges;
  at: number;
}

/** An entry as it is read back, with the names its actor and key have now (null: gone). */
export interface AuditEntry extends NewAuditEntry {
  id: number;
  actorName: string | null;
  keyName: string | null;
}

export interface AuditFilter {
  actor?: number | undefined;
  action?: string | undefined;
  targetType?: string | undefined;
  targetId?: number | undefined;
  /** Epoch milliseconds, inclusive. */
  from?: number | undefined;
  /** Epoch milliseconds, exclusive. */
  to?: number | undefined;
}
