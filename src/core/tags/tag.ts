export interface Tag {
  id: number;
  accountId: number;
  name: string;
  /** One of TAG_COLOURS. */
  color: TagColour;
  createdAt: number;
  updatedAt: number;
}

/** A tag with how many of the account's links carry it (the tags list). */
export interface TagWithCount extends Tag {
  links: number;
}

/** The fixed palette: names, not raw colours, so each theme draws them in its own shades. */
export const TAG_COLOURS = ['gray', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple', 'pink'] as const;
export type TagColour = (typeof TAG_COLOURS)[number];

export const TAG_LIMITS = { nameMin: 1, nameMax: 32, perLink: 10 } as const;

export interface TagInput {
  name?: string | null | undefined;
  color?: string | null | undefined;
}

export function isTagColour(value: string): value is TagColour {
  return (TAG_COLOURS as readonly string[]).includes(value);
}
