/** The links screens. */
export const links = {
  title: 'Links',
} as const;
