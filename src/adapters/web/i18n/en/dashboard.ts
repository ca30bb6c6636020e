/** The dashboard screens. */
export const dashboard = {
  title: 'Dashboard',
} as const;
