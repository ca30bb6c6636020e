export const PIXEL_TYPES = [
  'adroll',
  'bing',
  'facebook',
  'google-ads',
  'google-analytics',
  'google-tag-manager',
  'linkedin',
  'pinterest',
  'quora',
  'twitter',
] as const;

export type PixelType = (typeof PIXEL_TYPES)[number];

export interface Pixel {
  id: number;
  accountId: number;
  name: string;
  type: PixelType;
  /** The vendor's id for this pixel; it is placed inside vendor scripts, hence its strict alphabet. */
  value: string;
  createdAt: number;
  updatedAt: number;
}

export interface PixelInput {
  name?: string | undefined;
  type?: PixelType | undefined;
  value?: string | undefined;
}

export const PIXEL_LIMITS = { nameMax: 32, valueMax: 255 } as const;
export const PIXEL_VALUE_PATTERN = /^[A-Za-z0-9_-]+$/;

export function isPixelType(s: string): s is PixelType {
  return (PIXEL_TYPES as readonly string[]).includes(s);
}
