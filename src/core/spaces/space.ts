export interface Space {
  id: number;
  accountId: number;
  name: string;
  /** One of six palette slots, 1..6, as phpShort clients draw them. */
  color: number;
  createdAt: number;
  updatedAt: number;
}

export interface SpaceInput {
  name?: string | undefined;
  color?: number | undefined;
}

export const SPACE_LIMITS = { nameMax: 32, colorMin: 1, colorMax: 6 } as const;
