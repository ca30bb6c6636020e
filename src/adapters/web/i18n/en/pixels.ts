/** The pixels screens. */
export const pixels = {
  title: 'Pixels',
} as const;
