/** The senders linkpix takes sales from (docs/design/integrations.md). */
export const INTEGRATION_TYPES = ['stripe', 'shopify'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

export const isIntegrationType = (value: unknown): value is IntegrationType =>
  typeof value === 'string' && (INTEGRATION_TYPES as readonly string[]).includes(value);

/** A workspace's endpoint for one sender; its token is the endpoint's address, its secret the sender's. */
export interface Integration {
  id: number;
  workspaceId: number;
  type: IntegrationType;
  /** The last part of the endpoint's address: whoever holds it may post, only a good signature records. */
  token: string;
  createdAt: number;
}

/** An integration found by its token, with the sender's signing secret. */
export interface ReceivingIntegration {
  integration: Integration;
  secret: string;
}

/** The token and secret as the store keeps them: made by `seal`, for `insert`. */
export interface SealedCredentials {
  token: string;
  sealed: { token: string; secret: string };
}

/** Integrations at rest; the adapter seals the token and the secret (docs/design/secrets.md). */
export interface IntegrationStore {
  /** Sealing may read the database's key: it comes before the insert's transaction, never in it. */
  seal(credentials: { token: string; secret: string }): Promise<SealedCredentials>;
  insert(workspaceId: number, type: IntegrationType, credentials: SealedCredentials, at: number): Promise<Integration>;
  list(workspaceId: number): Promise<Integration[]>;
  count(workspaceId: number): Promise<number>;
  findById(workspaceId: number, id: number): Promise<Integration | null>;
  /** Deletes it and the events it took; false when there was none. */
  delete(workspaceId: number, id: number): Promise<boolean>;
  findByToken(token: string): Promise<ReceivingIntegration | null>;
  /** Notes the sender's event as taken; false when it was taken before (by this or a concurrent request). */
  claimEvent(integrationId: number, eventId: string, at: number): Promise<boolean>;
  /** Forgets a claim whose recording failed, so the sender's retry records it. */
  releaseEvent(integrationId: number, eventId: string): Promise<void>;
}
