/** The domains screens. */
export const domains = {
  title: 'Domains',
} as const;
