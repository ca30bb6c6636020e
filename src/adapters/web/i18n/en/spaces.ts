/** The spaces screens. */
export const spaces = {
  title: 'Spaces',
} as const;
