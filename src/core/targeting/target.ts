/** target_type values; 3 (language) is phpShort's own, which its documentation omits. */
export const TargetType = { None: 0, Country: 1, Platform: 2, Language: 3, Rotation: 4 } as const;
export type TargetType = (typeof TargetType)[keyof typeof TargetType];
export const TARGET_TYPE_VALUES: readonly number[] = Object.values(TargetType);

export const PLATFORMS = ['iOS', 'Android', 'Windows', 'OS X', 'Linux', 'Ubuntu', 'Chrome OS'] as const;
export type Platform = (typeof PLATFORMS)[number];

export interface KeyedTarget {
  key: string;
  value: string;
}

export interface RotationTarget {
  value: string;
}

/** All four lists are kept; only the one chosen by target_type acts at visit time. */
export interface Targets {
  country: KeyedTarget[] | null;
  platform: KeyedTarget[] | null;
  language: KeyedTarget[] | null;
  rotation: RotationTarget[] | null;
}

export type TargetListName = keyof Targets;
export const TARGET_LISTS: readonly TargetListName[] = ['country', 'platform', 'language', 'rotation'];

/** Bounds chosen so a link record stays small: one entry per key, at most 100 rotating URLs. */
export const TARGET_LIMITS = { rotationMax: 100 } as const;
