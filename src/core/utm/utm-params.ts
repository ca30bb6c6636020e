/** The five campaign parameters analytics tools read, in the order they are written. */
export const UTM_PARAMS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;

export type UtmParam = (typeof UTM_PARAMS)[number];

/** A value per parameter; '' means the parameter is absent. */
export type UtmParams = Record<UtmParam, string>;

export const UTM_LIMITS = { nameMax: 64, valueMax: 200 } as const;

export function emptyUtm(): UtmParams {
  return { utm_source: '', utm_medium: '', utm_campaign: '', utm_term: '', utm_content: '' };
}

export const isUtmParam = (name: string): name is UtmParam => (UTM_PARAMS as readonly string[]).includes(name);
